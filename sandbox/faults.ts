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
  rateLimitedRate: number; // 429 rate_limited with Retry-After, nothing processed, as when the real limit is hit
  retryAfterSeconds: number; // the Retry-After of an injected 429
  timeoutRate: number; // nothing is processed; the response is held for timeoutMs, then a 504
  dropResponseAfterCommitRate: number; // fully processed, then the socket is destroyed without a response
  latencyMs: number; // added before every matching request
  timeoutMs: number;
  methods: string[] | null; // only these methods, e.g. ["POST"]
  pathPrefix: string | null; // only paths starting with this, e.g. "/api/v1/orders"
  maxFaults: number | null; // faults left to inject; null = unlimited
};

export type FaultRoll = { error: boolean; rateLimited: boolean; timeout: boolean; drop: boolean; latencyMs: number };

export function noFaults(): Faults {
  return {
    errorRate: 0,
    rateLimitedRate: 0,
    retryAfterSeconds: 1,
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
  const none = { error: false, rateLimited: false, timeout: false, drop: false, latencyMs: 0 };
  if (faults.methods && !faults.methods.includes(method)) return none;
  if (faults.pathPrefix && !path.startsWith(faults.pathPrefix)) return none;
  const roll = { ...none, error: Math.random() < faults.errorRate, latencyMs: faults.latencyMs };
  roll.rateLimited = !roll.error && Math.random() < faults.rateLimitedRate;
  roll.timeout = !roll.error && !roll.rateLimited && Math.random() < faults.timeoutRate;
  roll.drop = !roll.error && !roll.rateLimited && !roll.timeout && Math.random() < faults.dropResponseAfterCommitRate;
  if (!(roll.error || roll.rateLimited || roll.timeout || roll.drop)) return roll;
  if (faults.maxFaults !== null) {
    if (faults.maxFaults <= 0) return { ...none, latencyMs: roll.latencyMs };
    faults.maxFaults -= 1;
  }
  return roll;
}

export function parseFaults(body: unknown): Faults {
  if (!isObject(body)) throw invalidRequest("The body must be a JSON object.");
  const r = createReader();
  rejectUnknown(r, body, [
    "errorRate",
    "rateLimitedRate",
    "retryAfterSeconds",
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
    rateLimitedRate: readRate(r, body, "rateLimitedRate", "rateLimitedRate") ?? 0,
    retryAfterSeconds:
      readInteger(r, body, "retryAfterSeconds", "retryAfterSeconds", { min: 0, max: 3_600 }) ?? base.retryAfterSeconds,
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
