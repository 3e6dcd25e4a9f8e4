import "server-only";
import { db } from "@/lib/db/client";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { checkBudgetExhaustion } from "./budget-exhaustion";
import { CALL_COUNT_RETENTION_MS } from "./call-counts";
import { pruneSharedReadCache } from "./shared-read-cache";

export const UPSTREAM_QUEUES = {
  pruneCallCounts: periodicQueue("upstream.prune-call-counts", 600),
  exhaustion: periodicQueue("upstream.budget-exhaustion", 120),
} as const;

/** Drops per-minute call counts older than the retention (a few days); returns how many rows went. */
export async function pruneCallCounts(now = new Date()): Promise<number> {
  const { count } = await db().upstreamCallMinute.deleteMany({
    where: { minute: { lt: new Date(now.getTime() - CALL_COUNT_RETENTION_MS) } },
  });
  return count;
}

/**
 * The upstream budget's housekeeping (and the shared catalog cache's), run by the worker once
 * an hour, and its watch: a budget used up for minutes on end is told to admins (each minute).
 */
export const upstreamJobs: JobDefinition[] = [
  periodicJob({
    queue: UPSTREAM_QUEUES.pruneCallCounts,
    everySeconds: () => 3_600,
    run: async () => {
      await pruneCallCounts();
      await pruneSharedReadCache();
    },
  }),
  periodicJob({ queue: UPSTREAM_QUEUES.exhaustion, everySeconds: () => 60, run: () => checkBudgetExhaustion() }),
];
