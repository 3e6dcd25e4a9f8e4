import "server-only";
import { logger } from "@/lib/log";
import { defineJob, type JobContext, type JobDefinition, type QueueSpec } from "./define-job";
import { HEARTBEAT_SECONDS } from "./queue";
import { sendJob } from "./send-job";

/**
 * The queue of a periodic job. "exclusive" = at most one job queued or running: a beat that
 * comes while a pass waits or runs is dropped, so passes never overlap, however many workers
 * beat. Unlike "stately" and "singleton", pg-boss's fetch does not skip an exclusive queue's
 * keys by its statistics, so a due pass is fetched at the worker's next poll. No retries: the
 * next beat is the retry. `disposable`: its jobs are beats, so a worker may recreate the queue.
 * A dead worker cannot stall a periodic job: its pass is failed once it stops beating
 * (HEARTBEAT_SECONDS, queue.ts), and `expireInSeconds` only bounds a live pass that hangs.
 */
export function periodicQueue(name: string, expireInSeconds: number): QueueSpec {
  return {
    name,
    options: {
      policy: "exclusive",
      retryLimit: 0,
      expireInSeconds,
      heartbeatSeconds: HEARTBEAT_SECONDS,
      deleteAfterSeconds: 3_600,
    },
    disposable: true,
  };
}

/**
 * A pass of `run` every `everySeconds` (a function: it may come from the environment, read once
 * validated). The worker beats it (startPeriodic below): on pg-boss's own schedule when the
 * interval is whole minutes that cron can say, else on a timer of its own. A pass that fails is
 * logged and waits for the next beat.
 */
export function periodicJob(task: {
  queue: QueueSpec;
  everySeconds: () => number;
  run: (context: JobContext) => Promise<unknown>;
}): JobDefinition {
  return defineJob<object>({
    queue: task.queue,
    // Each poll is a query, and on PGlite (no NOTIFY) polls were most of what an idle app cost
    // the database: a quarter of the interval keeps a pass at most a quarter late.
    work: () => ({ pollingIntervalSeconds: Math.min(5, Math.max(1, task.everySeconds() / 4)) }),
    async handle(jobs, context) {
      try {
        const result = await task.run(context);
        logger.debug("periodic job ran", { queue: task.queue.name, jobIds: jobs.map((job) => job.id), result });
      } catch (error) {
        logger.warn("periodic job failed", {
          queue: task.queue.name,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
    schedule: { everySeconds: task.everySeconds },
  });
}

/**
 * The cron expression for a pass every `seconds`, when cron can say it evenly: whole minutes
 * dividing an hour, or whole hours dividing a day. Null otherwise (sub-minute, or 90 s).
 */
export function cronEvery(seconds: number): string | null {
  if (seconds % 60 !== 0) return null;
  const minutes = seconds / 60;
  if (minutes === 1) return "* * * * *";
  if (minutes < 60) return 60 % minutes === 0 ? `*/${minutes} * * * *` : null;
  if (minutes % 60 !== 0) return null;
  const hours = minutes / 60;
  if (hours === 1) return "0 * * * *";
  return 24 % hours === 0 ? `0 */${hours} * * *` : null;
}

/**
 * Beats a periodic job on this worker: one pass at once, then pg-boss's schedule or, for an
 * interval cron cannot say, this process's timer. Each later beat is a plain send throttled to
 * one a slot of `seconds` across workers; the first is not, so a worker started again within an
 * hour's slot still makes its hourly pass at start. Every beat is dropped while a pass waits or
 * runs, so nothing hangs on a job re-queueing itself or on what pg-boss last counted.
 * Resolves with the function that stops the timer (a no-op for a schedule, stopped with pg-boss).
 */
export async function startPeriodic(context: JobContext, queue: QueueSpec, seconds: number): Promise<() => void> {
  const beat = () => sendJob(queue, {}, { singletonSeconds: seconds }, context);
  await sendJob(queue, {}, {}, context);
  const cron = cronEvery(seconds);
  if (cron) {
    await context.boss.schedule(queue.name, cron, {}, { singletonSeconds: seconds });
    return () => undefined;
  }
  // A schedule left by an older worker would beat a second time.
  await context.boss.unschedule(queue.name);
  const timer = setInterval(() => {
    beat().catch((error: unknown) =>
      logger.warn("periodic job not queued; the next beat will try again", { queue: queue.name, error: String(error) }),
    );
  }, seconds * 1000);
  return () => clearInterval(timer);
}
