import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { AttemptLog, Priority } from "@/lib/upstream/client";
import type { CacheStats } from "@/lib/upstream/client/read-cache";

/**
 * Per-minute counters of what the upstream budget saw, for the admin's home page: every
 * attempt sent (by priority and outcome), every caller the budget made wait, and the read
 * cache's hits and misses. Counted in memory and written as one upsert every few seconds,
 * off the request path: a page never waits for a counter. Each instance adds its own counts
 * to the shared rows, so several instances sum correctly. A crash loses at most the last
 * few seconds of counts, which a chart of the last hour can afford.
 */
export type CallOutcome = "ok" | "rejected" | "throttled" | "failed";
export type CountedOutcome = CallOutcome | "cache_hit" | "cache_miss" | "waited";
/** Cache lookups are not attributed to a priority: the cache serves both. */
export type CountedPriority = Priority | "any";

const MINUTE_MS = 60_000;
/** How long the rows are kept (lib/upstream/jobs.ts prunes older ones). */
export const CALL_COUNT_RETENTION_MS = 3 * 86_400_000;

/** The outcome of one attempt as the transport logged it. */
export function attemptOutcome(attempt: Pick<AttemptLog, "status" | "code">): CallOutcome {
  if (attempt.status === 429) return "throttled";
  if (attempt.status !== undefined && attempt.status > 0 && attempt.status < 400) return "ok";
  if (attempt.status !== undefined && attempt.status >= 400 && attempt.status < 500) return "rejected";
  return "failed";
}

export function minuteOf(at: number): Date {
  return new Date(at - (at % MINUTE_MS));
}

export function createCallCounts(options: { cacheStats?: () => CacheStats; flushEveryMs?: number } = {}) {
  const pending = new Map<string, number>();
  let lastCache = { served: 0, missed: 0 };
  let timer: ReturnType<typeof setInterval> | undefined;

  function add(priority: CountedPriority, outcome: CountedOutcome, at = Date.now(), n = 1) {
    if (n <= 0) return;
    const key = `${minuteOf(at).toISOString()}|${priority}|${outcome}`;
    pending.set(key, (pending.get(key) ?? 0) + n);
    startTimer();
  }

  /** Never keeps the process alive on its own. */
  function startTimer() {
    timer ??= setInterval(() => void flush(), options.flushEveryMs ?? 5_000);
    timer.unref?.();
  }

  /** The cache's counters only grow: what is new since the last sample is this minute's. */
  function sampleCache() {
    if (!options.cacheStats) return;
    const stats = options.cacheStats();
    const now = { served: stats.hits + stats.coalesced, missed: stats.misses };
    add("any", "cache_hit", Date.now(), now.served - lastCache.served);
    add("any", "cache_miss", Date.now(), now.missed - lastCache.missed);
    lastCache = now;
  }

  async function flush(): Promise<void> {
    sampleCache();
    if (pending.size === 0) return;
    const batch = [...pending.entries()];
    pending.clear();
    const rows = batch.map(([key, count]) => {
      const [minute, priority, outcome] = key.split("|") as [string, string, string];
      return Prisma.sql`(${new Date(minute)}, ${priority}, ${outcome}, ${count})`;
    });
    try {
      await db().$executeRaw`
        INSERT INTO "UpstreamCallMinute" ("minute", "priority", "outcome", "count") VALUES ${Prisma.join(rows)}
        ON CONFLICT ("minute", "priority", "outcome")
        DO UPDATE SET "count" = "UpstreamCallMinute"."count" + EXCLUDED."count"`;
    } catch (error) {
      // Kept for the next flush rather than lost; the counts are not worth failing anything for.
      for (const [key, count] of batch) pending.set(key, (pending.get(key) ?? 0) + count);
      logger.warn("upstream call counts not written; kept for the next try", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  // Cache hits cost no upstream call, so no attempt would start the timer for them.
  if (options.cacheStats) startTimer();

  return {
    /** One attempt the transport sent, in the minute it started. */
    attempt(log: AttemptLog) {
      add(log.priority ?? "interactive", attemptOutcome(log), Date.now() - log.durationMs);
    },
    /** A caller the budget held back (the window was full). */
    waited(priority: Priority) {
      add(priority, "waited");
    },
    /** Writes what has been counted so far (tests call it to see their counts at once). */
    flush,
  };
}

export type CallCounts = ReturnType<typeof createCallCounts>;
