import "server-only";
import type { Job } from "pg-boss";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { inJobSpan } from "@/lib/telemetry/job-span";
import type { JobContext, JobDefinition } from "./define-job";
import { jobsInHand, startHeartbeat, type JobsInHand } from "./heartbeat";
import { startPeriodic } from "./periodic-job";
import { ensureQueue, getQueue, stopQueues } from "./queue";
import { sendJob } from "./send-job";

/**
 * The background worker: runs the job definitions it is handed (scripts/worker.ts hands it
 * every domain's, lib/worker-jobs.ts) on this process's queue. It knows no domain: each
 * declares its queues, handlers and schedules in `lib/<domain>/jobs.ts`.
 */
export type Worker = {
  /** Stops fetching and lets running jobs finish for up to `timeoutMs`; pg-boss fails what is left, to be retried. */
  stop(timeoutMs?: number): Promise<void>;
};

/**
 * `periodic: false` leaves out the definitions with a schedule (tests that must not act on other
 * files' leftovers). The worker beats (./heartbeat.ts) once its jobs are registered, until it has stopped.
 */
export async function startWorker(
  definitions: readonly JobDefinition[],
  options: { periodic?: boolean; beatEveryMs?: number } = {},
): Promise<Worker> {
  const context = await getQueue("worker");
  const inHand = jobsInHand();
  const periodic = options.periodic !== false;
  const timers: (() => void)[] = [];
  const taken = definitions.filter((definition) => periodic || !definition.schedule);
  // Every queue exists before any job runs: a job that queues another inside its transaction
  // (a notification's deliveries) must not create a queue there (send-job.ts, insertJobs).
  for (const { queue } of taken) await ensureQueue(context, queue);
  for (const definition of taken) timers.push(await registerJob(context, definition, inHand));
  const heartbeat = await startHeartbeat(getEnv().DATABASE_URL, { working: inHand.list, everyMs: options.beatEveryMs });
  logger.info("worker started", { embedded: context.embedded, periodic, instance: heartbeat.instance });
  return {
    async stop(timeoutMs) {
      for (const stopTimer of timers) stopTimer();
      await stopQueues(timeoutMs);
      await heartbeat.stop();
    },
  };
}

/** Resolves with what stops the definition's own timer, if it has one. */
async function registerJob(context: JobContext, definition: JobDefinition, inHand: JobsInHand): Promise<() => void> {
  const { queue, schedule } = definition;
  await ensureQueue(context, queue);
  // pg-boss picks the handler's signature from the options' literal type; a definition's
  // options are only known at run time, and its handler was typed by defineJob.
  const handle = (jobs: Job<unknown>[]) =>
    inJobSpan(queue.name, jobs.length, async () => {
      inHand.took(queue.name, jobs);
      try {
        return await definition.handle(jobs as Job<never>[], context);
      } finally {
        inHand.finished(jobs);
      }
    });
  await context.boss.work(queue.name, definition.work(context.embedded), handle);
  if (!schedule) return () => undefined;
  if ("everySeconds" in schedule) return startPeriodic(context, queue, schedule.everySeconds());
  await schedule.setup?.();
  if (schedule.startup) await sendJob(queue, {}, { singletonKey: "startup" }, context);
  await context.boss.schedule(queue.name, schedule.cron, schedule.data);
  return () => undefined;
}
