import "server-only";
import type { Job, PgBoss, Queue } from "pg-boss";
import { db } from "@/lib/db/client";
import { getQueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/log";
import { ACTIVE_BULK_STATES } from "./bulk-states";
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
export const BULK_QUEUES = { run: "bulk-orders.run", sweep: "bulk-orders.sweep" } as const;
export type BulkRunJob = { bulkOrderId: string };

const OPTIONS: Record<(typeof BULK_QUEUES)[keyof typeof BULK_QUEUES], Omit<Queue, "name">> = {
  "bulk-orders.run": { policy: "stately", retryLimit: 20, retryDelay: 10, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 600, heartbeatSeconds: 30, deleteAfterSeconds: 7 * 86_400 },
  "bulk-orders.sweep": { policy: "stately", retryLimit: 0, expireInSeconds: 120, deleteAfterSeconds: 3_600 },
};

const created = new WeakMap<PgBoss, Promise<void>>();

/** Creates the queues once per queue instance (creating an existing queue changes nothing). */
export function ensureBulkQueues(boss: PgBoss): Promise<void> {
  let done = created.get(boss);
  if (!done) {
    done = (async () => {
      for (const [name, options] of Object.entries(OPTIONS)) await boss.createQueue(name, options);
    })();
    done.catch(() => created.delete(boss));
    created.set(boss, done);
  }
  return done;
}

/** Asks a worker to run (or continue) a bulk order; false when a run is already queued. */
export async function enqueueBulkOrderRun(bulkOrderId: string, options: { startAfterSeconds?: number; boss?: PgBoss } = {}): Promise<boolean> {
  const boss = options.boss ?? (await getQueue()).boss;
  await ensureBulkQueues(boss);
  const data: BulkRunJob = { bulkOrderId };
  const id = await boss.send(BULK_QUEUES.run, data, { singletonKey: bulkOrderId, ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}) });
  return id !== null;
}

/** Called by the worker (lib/jobs/worker.ts) to take bulk-order jobs. */
export async function registerBulkOrderJobs(boss: PgBoss, options: { periodic?: boolean } = {}): Promise<void> {
  await ensureBulkQueues(boss);
  await boss.work<BulkRunJob>(BULK_QUEUES.run, { pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) await runJob(boss, job);
  });
  if (options.periodic === false) return;
  await boss.work(BULK_QUEUES.sweep, { pollingIntervalSeconds: 5 }, async () => {
    await sweepBulkOrders(boss);
  });
  await boss.send(BULK_QUEUES.sweep, {}, { singletonKey: "startup" });
  await boss.schedule(BULK_QUEUES.sweep, "* * * * *");
}

async function runJob(boss: PgBoss, job: Job<BulkRunJob>): Promise<void> {
  const { bulkOrderId } = job.data;
  const result = await runBulkOrder(bulkOrderId, { signal: job.signal });
  logger.info("bulk order run", { bulkOrderId, jobId: job.id, state: result.state, open: result.open });
  if (result.retryInSeconds !== null) {
    // Queued beside this (still active) job; it starts once this one completes.
    await enqueueBulkOrderRun(bulkOrderId, { startAfterSeconds: result.retryInSeconds, boss }).catch((error: unknown) => {
      logger.warn("bulk order continuation not queued; the sweep will re-queue it", { bulkOrderId, error: error instanceof Error ? error.message : String(error) });
    });
  }
}

export async function sweepBulkOrders(boss: PgBoss): Promise<number> {
  const active = await db().bulkOrder.findMany({ where: { state: { in: [...ACTIVE_BULK_STATES] } }, select: { id: true }, take: 200 });
  let queued = 0;
  for (const { id } of active) if (await enqueueBulkOrderRun(id, { boss })) queued += 1;
  if (queued) logger.info("bulk orders re-queued by the sweep", { queued });
  return queued;
}
