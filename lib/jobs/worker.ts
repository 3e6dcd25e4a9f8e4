import "server-only";
import type { Job } from "pg-boss";
import { logger } from "@/lib/log";
import { inJobSpan } from "@/lib/telemetry/job-span";
import type { JobContext, JobDefinition } from "./define-job";
import { ensureQueue, getQueue, stopQueues } from "./queue";
import { sendJob } from "./send-job";

/**
 * The background worker: runs the job definitions it is handed (scripts/worker.ts hands it
 * every domain's, lib/worker-jobs.ts) on this process's queue. It knows no domain: each
 * declares its queues, handlers and schedules in `lib/<domain>/jobs.ts`.
 */
export type Worker = { stop(): Promise<void> };

/** `periodic: false` leaves out the definitions with a schedule (tests that must not act on other files' leftovers). */
export async function startWorker(definitions: readonly JobDefinition[], options: { periodic?: boolean } = {}): Promise<Worker> {
  const context = await getQueue("worker");
  const periodic = options.periodic !== false;
  for (const definition of definitions) {
    if (definition.schedule && !periodic) continue;
    await registerJob(context, definition);
  }
  logger.info("worker started", { embedded: context.embedded, periodic });
  return {
    async stop() {
      await stopQueues();
    },
  };
}

async function registerJob(context: JobContext, definition: JobDefinition): Promise<void> {
  const { queue, schedule } = definition;
  await ensureQueue(context, queue);
  // pg-boss picks the handler's signature from the options' literal type; a definition's
  // options are only known at run time, and its handler was typed by defineJob.
  const handle = (jobs: Job<unknown>[]) =>
    inJobSpan(queue.name, jobs.length, () => definition.handle(jobs as Job<never>[], context));
  await context.boss.work(queue.name, definition.work(context.embedded), handle);
  if (!schedule) return;
  await schedule.setup?.();
  if (schedule.startup) await sendJob(queue, {}, { singletonKey: "startup" }, context);
  await context.boss.schedule(queue.name, schedule.cron, schedule.data);
}
