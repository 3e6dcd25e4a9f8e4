import "server-only";
import { createServiceClient, type ServiceClient, type ServiceError } from "@/lib/upstream/client";
import { serviceConfig } from "@/lib/env";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { createCallCounts, type CallCounts } from "./call-counts";
import { createDbBudget } from "./db-budget";
import { sharedReadCache } from "./shared-read-cache";
import { toAppError } from "./to-app-error";

/**
 * The process's one upstream client, wired to the shared database budget, structured
 * logging (never the key, never a body) and the status panel's last-error record. Its
 * calls fail with AppErrors (./to-app-error.ts), so no caller converts upstream errors.
 */
type Wired = { client: ServiceClient; budget: ReturnType<typeof createDbBudget>; counts: CallCounts };
const globalForService = globalThis as unknown as { __service?: Wired };

export function upstream(): ServiceClient {
  return wired().client;
}

export function upstreamBudget() {
  return wired().budget;
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
  const counts = createCallCounts({ cacheStats: () => client.cache.stats() });
  const budget = createDbBudget(config.rateLimit, (priority) => counts.waited(priority));
  const client = createServiceClient({
    baseUrl: config.baseUrl,
    apiKeys: config.apiKeys,
    budget,
    timeoutMs: config.timeoutMs,
    retryBaseMs: config.retryBaseMs,
    catalogTtlMs: config.catalogTtlMs,
    shared: sharedReadCache,
    onAttempt: (a) => {
      counts.attempt(a);
      (a.outcome === "ok" ? logger.debug : logger.warn)("upstream attempt", { ...a });
    },
    onError: (error, path) => void recordLastError(error, path),
    onKeySwitch: (from, to) => logger.warn("upstream key refused with 401; switched to the next configured key", { from, to }),
  });
  return { client: withAppErrors(client), budget, counts };
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
