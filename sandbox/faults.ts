import {
  createReader,
  isObject,
  readInteger,
  readNumber,
  readRate,
  readString,
  readStringArray,
  rejectUnknown,
} from "./validate";
import { invalidRequest } from "./problem";

// Fault injection for the public API (never the control plane). Each rate is an independent probability per request.
// A `maxFaults` budget makes a fault deterministic for tests: e.g. {dropResponseAfterCommitRate: 1, maxFaults: 1}.

export type Faults = {
  errorRate: number; // 503 before anything is processed
  timeoutRate: number; // nothing is processed; the response is held for timeoutMs, then a 504
  dropResponseAfterCommitRate: number; // fully processed, then the socket is destroyed without a response
  latencyMs: number; // added before every matching request
  timeoutMs: number;
  methods: string[] | null; // only these methods, e.g. ["POST"]
  pathPrefix: string | null; // only paths starting with this, e.g. "/api/v1/orders"
  maxFaults: number | null; // faults left to inject; null = unlimited
};

export type FaultRoll = { error: boolean; timeout: boolean; drop: boolean; latencyMs: number };

export function noFaults(): Faults {
  return {
    errorRate: 0,
    timeoutRate: 0,
    dropResponseAfterCommitRate: 0,
    latencyMs: 0,
    timeoutMs: 20_000,
    methods: null,
    pathPrefix: null,
    maxFaults: null,
  };
}

export function rollFaults(faults: Faults, method: string, path: string): FaultRoll {
  const none = { error: false, timeout: false, drop: false, latencyMs: 0 };
  if (faults.methods && !faults.methods.includes(method)) return none;
  if (faults.pathPrefix && !path.startsWith(faults.pathPrefix)) return none;
  const roll = { error: Math.random() < faults.errorRate, timeout: false, drop: false, latencyMs: faults.latencyMs };
  roll.timeout = !roll.error && Math.random() < faults.timeoutRate;
  roll.drop = !roll.error && !roll.timeout && Math.random() < faults.dropResponseAfterCommitRate;
  if (!(roll.error || roll.timeout || roll.drop)) return roll;
  if (faults.maxFaults !== null) {
    if (faults.maxFaults <= 0) return { ...roll, error: false, timeout: false, drop: false };
    faults.maxFaults -= 1;
  }
  return roll;
}

export function parseFaults(body: unknown): Faults {
  if (!isObject(body)) throw invalidRequest("The body must be a JSON object.");
  const r = createReader();
  rejectUnknown(r, body, [
    "errorRate",
    "timeoutRate",
    "dropResponseAfterCommitRate",
    "latencyMs",
    "timeoutMs",
    "methods",
    "pathPrefix",
    "maxFaults",
  ]);
  const base = noFaults();
  const faults: Faults = {
    errorRate: readRate(r, body, "errorRate", "errorRate") ?? 0,
    timeoutRate: readRate(r, body, "timeoutRate", "timeoutRate") ?? 0,
    dropResponseAfterCommitRate: readRate(r, body, "dropResponseAfterCommitRate", "dropResponseAfterCommitRate") ?? 0,
    latencyMs: readNumber(r, body, "latencyMs", "latencyMs", { min: 0, max: 120_000 }) ?? 0,
    timeoutMs: readNumber(r, body, "timeoutMs", "timeoutMs", { min: 0, max: 600_000 }) ?? base.timeoutMs,
    methods: readStringArray(r, body, "methods", "methods")?.map((m) => m.toUpperCase()) ?? null,
    pathPrefix: readString(r, body, "pathPrefix", "pathPrefix", { max: 200 }) ?? null,
    maxFaults: readInteger(r, body, "maxFaults", "maxFaults", { min: 0, max: 1_000_000 }) ?? null,
  };
  r.fail();
  return faults;
}
