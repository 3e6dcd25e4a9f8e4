import "server-only";
import type { Job } from "pg-boss";
import { logger } from "@/lib/log";
import { defineJob, type JobDefinition, type QueueSpec } from "./define-job";
import { sendJob } from "./send-job";

/**
 * The queue of a periodic chain. Stately = at most one queued and one running job per
 * singleton key: the chain re-sends itself with a delay, and this is what keeps it one
 * chain across any number of workers. No retries: the next link is the retry.
 */
export function periodicQueue(name: string, expireInSeconds: number): QueueSpec {
  return { name, options: { policy: "stately", retryLimit: 0, expireInSeconds, deleteAfterSeconds: 3_600 } };
}

/** The singleton key of a periodic chain's waiting link. */
export const CHAIN_KEY = "chain";

/**
 * Periodic work as a chain of delayed jobs: each run queues the next one `everySeconds`
 * later under one singleton key, and the queue's "stately" policy keeps that to one chain
 * however many workers run, so each pass runs on one worker at a time. pg-boss cron has a
 * one-minute resolution, too coarse for a 5 s reconciliation; a per-minute cron is kept
 * only as a keeper that restarts a chain if a link was ever lost (a failed send). A due link is
 * fetched within the worker's polling interval, or a few seconds more when pg-boss's statistics
 * last saw its key active (queue.ts, STATS_SECONDS).
 * `everySeconds` is a function because it may come from the environment, read once validated.
 */
export function periodicJob(task: { queue: QueueSpec; everySeconds: () => number; run: () => Promise<unknown> }): JobDefinition {
  return defineJob<{ keeper?: boolean }>({
    queue: task.queue,
    // Each poll is a query, and on PGlite (no NOTIFY) the worker's polls were most of what an
    // idle app cost the database (~50 ms of its CPU a second). A link is due every
    // `everySeconds`: polling at a quarter of that keeps a pass at most a quarter late.
    work: () => ({ pollingIntervalSeconds: Math.min(5, Math.max(1, task.everySeconds() / 4)) }),
    async handle(jobs: Job<{ keeper?: boolean }>[], context) {
      try {
        for (const job of jobs) {
          // The keeper only makes sure a link exists (below); running the task too would double a pass.
          if (job.data?.keeper) continue;
          const result = await task.run();
          logger.debug("periodic job ran", { queue: task.queue.name, jobId: job.id, result });
        }
      } catch (error) {
        logger.warn("periodic job failed", {
          queue: task.queue.name,
          error: error instanceof Error ? error.message : String(error),
        });
      } finally {
        // Dropped by the queue when a link is already waiting: that is the "one chain" rule.
        await sendJob(task.queue, {}, { singletonKey: CHAIN_KEY, startAfter: task.everySeconds() }, context).catch(
          (error: unknown) => {
            logger.warn("periodic job not re-queued; the minute keeper will restart it", {
              queue: task.queue.name,
              error: String(error),
            });
          },
        );
      }
    },
    schedule: {
      cron: "* * * * *",
      data: { keeper: true },
      startup: true,
    },
  });
}
