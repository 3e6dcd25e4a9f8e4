import "server-only";
import type { Job } from "pg-boss";
import { db } from "@/lib/db/client";
import { defineJob, type JobContext, type JobDefinition, type QueueSpec } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { sendJob } from "@/lib/jobs/send-job";
import { logger } from "@/lib/log";
import { ACTIVE_BULK_STATES } from "./states";
import { runBulkOrder } from "./run-bulk-order";

/**
 * The bulk-order queues. `bulk-orders.run` carries one bulk order id; the "stately" policy
 * with the id as singleton key keeps at most one queued and one running job per bulk order,
 * so two workers never place the same bulk at once. A run works for a slice (a minute) and
 * queues its own continuation. The heartbeat lets the queue notice a worker that died
 * mid-run and hand the job to another within half a minute; retries back off.
 * `bulk-orders.sweep` (every minute, on the worker) re-queues any confirmed or running bulk
 * order whose job was lost, e.g. when the queue was unreachable at confirmation.
 */
export const BULK_QUEUES = {
  run: {
    name: "bulk-orders.run",
    options: {
      policy: "stately",
      retryLimit: 20,
      retryDelay: 10,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 600,
      heartbeatSeconds: 30,
      deleteAfterSeconds: 7 * 86_400,
    },
  },
  sweep: periodicQueue("bulk-orders.sweep", 120),
} as const satisfies Record<string, QueueSpec>;
export type BulkRunJob = { bulkOrderId: string };

/** The bulk orders' jobs, run by the worker. */
export const bulkOrderJobs: JobDefinition[] = [
  defineJob<BulkRunJob>({
    queue: BULK_QUEUES.run,
    work: () => ({ pollingIntervalSeconds: 1 }),
    async handle(jobs, context) {
      for (const job of jobs) await runJob(job, context);
    },
  }),
  periodicJob({ queue: BULK_QUEUES.sweep, everySeconds: () => 60, run: (context) => sweepBulkOrders(context) }),
];

/** Asks a worker to run (or continue) a bulk order; false when a run is already queued. */
export async function enqueueBulkOrderRun(
  bulkOrderId: string,
  options: { startAfterSeconds?: number; via?: JobContext } = {},
): Promise<boolean> {
  const data: BulkRunJob = { bulkOrderId };
  const id = await sendJob(
    BULK_QUEUES.run,
    data,
    { singletonKey: bulkOrderId, ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}) },
    options.via,
  );
  return id !== null;
}

async function runJob(job: Job<BulkRunJob>, context: JobContext): Promise<void> {
  const { bulkOrderId } = job.data;
  const result = await runBulkOrder(bulkOrderId, { signal: job.signal });
  logger.info("bulk order run", { bulkOrderId, jobId: job.id, state: result.state, open: result.open });
  if (result.retryInSeconds !== null) {
    // Queued beside this (still active) job; it starts once this one completes.
    await enqueueBulkOrderRun(bulkOrderId, { startAfterSeconds: result.retryInSeconds, via: context }).catch((error: unknown) => {
      logger.warn("bulk order continuation not queued; the sweep will re-queue it", {
        bulkOrderId,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }
}

export async function sweepBulkOrders(context: JobContext): Promise<number> {
  const active = await db().bulkOrder.findMany({
    where: { state: { in: [...ACTIVE_BULK_STATES] } },
    select: { id: true },
    take: 200,
  });
  let queued = 0;
  for (const { id } of active) if (await enqueueBulkOrderRun(id, { via: context })) queued += 1;
  if (queued) logger.info("bulk orders re-queued by the sweep", { queued });
  return queued;
}
