import "server-only";
import { createServiceClient, type ServiceClient, type ServiceError, type Spender } from "@/lib/upstream/client";
import { getEnv, serviceConfig } from "@/lib/env";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { createCallCounts, type CallCounts } from "./call-counts";
import { createDbBudget, sharesFor, type BudgetShares } from "./db-budget";
import { createKeyHealth } from "./key-health";
import { reportShareRefusal } from "./reports";
import { readSettings } from "@/lib/settings/get-settings";
import { DEFAULT_SETTINGS } from "@/lib/settings/schema";
import { sharedReadCache } from "./shared-read-cache";
import { toAppError } from "./to-app-error";
import { countEvent } from "@/lib/telemetry/event-counts";

/**
 * The process's one upstream client, wired to the shared database budget, structured
 * logging (never the key, never a body) and the status panel's last-error record. Its
 * calls fail with AppErrors (./to-app-error.ts), so no caller converts upstream errors.
 */
type Wired = {
  client: ServiceClient;
  budget: ReturnType<typeof createDbBudget>;
  counts: CallCounts;
  /** Settled once this process's keys are recorded for key health. */
  announced: Promise<void>;
};
const globalForService = globalThis as unknown as { __service?: Wired };

export function upstream(): ServiceClient {
  return wired().client;
}

export function upstreamBudget() {
  return wired().budget;
}

/** Settled once this process's keys are recorded (key health reads them from the database). */
export function upstreamKeysAnnounced(): Promise<void> {
  return wired().announced;
}

/** The per-minute counters of this process's upstream calls (lib/upstream/call-counts.ts). */
export function upstreamCallCounts(): CallCounts {
  return wired().counts;
}

function wired(): Wired {
  globalForService.__service ??= wireUpstream(serviceConfig());
  return globalForService.__service;
}

/** A client wired as the process's own is, for `config` (tests wire one to keys of their own). */
export function wireUpstream(config: ReturnType<typeof serviceConfig>): Wired {
  const health = createKeyHealth(processHolder());
  const counts = createCallCounts({ cacheStats: () => client.cache.stats() });
  const budget = createDbBudget(config.rateLimit, {
    shares: sharesReader(config.rateLimit),
    onWait: (priority) => counts.waited(priority),
    onShareRefused: (by, first) => {
      if (first) void reportShareRefusal(by);
    },
  });
  const client = createServiceClient({
    baseUrl: config.baseUrl,
    keys: config.keys,
    budget,
    timeoutMs: config.timeoutMs,
    retryBaseMs: config.retryBaseMs,
    catalogTtlMs: config.catalogTtlMs,
    shared: sharedReadCache,
    onAttempt: (a) => {
      counts.attempt(a);
      countEvent("dgis_upstream_calls_total", {
        endpoint: a.endpoint,
        class: a.priority ?? "interactive",
        status: a.status ? String(a.status) : (a.code ?? "error"),
      });
      (a.outcome === "ok" ? logger.debug : logger.warn)("upstream attempt", { ...a });
    },
    onError: (error, path) => void recordLastError(error, path),
    onKeySwitch: (key, from, to) => {
      logger.warn("upstream key refused with 401; switched to the next configured key", { key, from, to });
      const next = client.transport.keys().find((slot) => slot.name === key)?.keys[to];
      if (next) health.switched(next.lookup);
    },
    onKeyOutcome: (outcome) => health.outcome(outcome),
  });
  const announced = health.announce(client.transport.keys());
  return { client: withAppErrors(client), budget, counts, announced };
}

/**
 * The admin's shares of the minute (Settings), read at most every few seconds per process:
 * every upstream call asks, and a change reaches every process within SHARES_TTL_MS. A failed
 * read keeps the last shares known (the defaults at first).
 */
const SHARES_TTL_MS = 5_000;
function sharesReader(limit: number): () => Promise<BudgetShares> {
  let held: { shares: BudgetShares; until: number } | undefined;
  let reading: Promise<BudgetShares> | undefined;
  const fromSettings = (s: Awaited<ReturnType<typeof readSettings>>) =>
    sharesFor(limit, {
      moneyReservePercent: s.upstreamMoneyReservePercent,
      personSharePercent: s.upstreamPersonSharePercent,
      personLookupsPerMinute: s.upstreamPersonLookupsPerMinute,
    });
  return async () => {
    if (held && held.until > Date.now()) return held.shares;
    reading ??= readSettings()
      .then(fromSettings)
      .catch(() => held?.shares ?? fromSettings(DEFAULT_SETTINGS))
      .then((shares) => {
        held = { shares, until: Date.now() + SHARES_TTL_MS };
        reading = undefined;
        return shares;
      });
    return reading;
  };
}

async function recordLastError(error: ServiceError, path: string) {
  const data = {
    lastErrorAt: new Date(),
    lastErrorStatus: error.status,
    lastErrorCode: error.code,
    lastErrorPath: path,
    lastCorrelationId: error.correlationId ?? null,
  };
  await db()
    .serviceStatus.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data })
    .catch(() => undefined);
}

/** The same client, each call's failure mapped once to an AppError (the ServiceError kept as its cause). */
function withAppErrors(client: ServiceClient): ServiceClient {
  const wrapped: Record<string, unknown> = { ...client };
  for (const [name, call] of Object.entries(client)) {
    if (typeof call !== "function") continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (call as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        throw toAppError(error);
      }
    };
  }
  return wrapped as ServiceClient;
}

/** Which process this is, for key health (scripts/worker.ts says it is the worker). */
function processHolder(): "web" | "worker" {
  return getEnv().APP_PROCESS;
}

/** A person as the budget charges them (their share of the minute): any actor of a domain function. */
export function spentBy(actor: { staffId: string; email?: string }): Spender {
  return { kind: "person", staffId: actor.staffId, email: actor.email };
}

/** A job as the budget charges it: no share of its own, counted under its name. */
export function spentByJob(name: string): Spender {
  return { kind: "job", name };
}
