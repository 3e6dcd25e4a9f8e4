import "server-only";
import type { Job, JobResult, PgBoss } from "pg-boss";
import { logger } from "@/lib/log";
import { orderSyncConfig } from "@/lib/env";
import { registerOrderImport } from "@/lib/orders/order-import-jobs";
import { reconcileOrders } from "@/lib/orders/reconcile-orders";
import { syncOrders } from "@/lib/orders/sync-orders";
import { resumePendingOrders } from "@/lib/orders/resume-pending-orders";
import type { ProcessJob } from "@/lib/webhooks/enqueue-event";
import { processEvent } from "@/lib/webhooks/process-event";
import { processPendingEvents } from "@/lib/webhooks/process-pending";
import { maintainWithdrawals } from "@/lib/withdrawals/maintain-withdrawals";
import { getQueue, QUEUE, stopQueues, type QueueName } from "./queue";
import { registerBulkOrderJobs } from "@/lib/bulk-orders/bulk-jobs"; // bulk orders (issue 5)

/**
 * The background worker: registers every job handler on this process's queue.
 *
 * Periodic work (the inbox sweep, order reconciliation, resuming unsettled orders) is a
 * chain of delayed jobs: each run queues the next one `everySeconds` later under one
 * singleton key, and the queues' "stately" policy keeps that to one chain however many
 * workers run, so each pass runs on one worker at a time. pg-boss cron has a one-minute
 * resolution, too coarse for a 5 s reconciliation; a per-minute cron is kept only as a
 * keeper that restarts a chain if a link was ever lost (a failed send).
 */
export type Worker = { stop(): Promise<void> };

const CHAIN_KEY = "chain";
type Periodic = { name: QueueName; everySeconds: number; run: () => Promise<unknown> };
const periodicTasks = (): Periodic[] => [
  { name: QUEUE.webhookSweep, everySeconds: 10, run: () => processPendingEvents({ olderThanMs: 5_000 }) },
  { name: QUEUE.ordersReconcile, everySeconds: 5, run: () => reconcileOrders() },
  { name: QUEUE.ordersResume, everySeconds: 30, run: () => resumePendingOrders() },
  // The safety net for missed webhooks; its interval and cost: lib/orders/sync-orders.ts.
  { name: QUEUE.ordersSync, everySeconds: orderSyncConfig().syncIntervalSeconds, run: () => syncOrders() },
  { name: QUEUE.withdrawalsMaintain, everySeconds: 15, run: () => maintainWithdrawals() },
];

export async function startWorker(options: { periodic?: boolean } = {}): Promise<Worker> {
  const { boss, embedded } = await getQueue("worker");
  // PGlite has no NOTIFY: fetch in batches and keep fetching while batches come back full
  // (docs/environment.md: about 4 jobs/s otherwise). Per-job results, so that one failing
  // event is retried alone instead of failing its whole batch. NOTIFY only announces new
  // jobs, not a retry whose backoff has run out, so the poll behind it stays short.
  await boss.work<ProcessJob>(
    QUEUE.webhookProcess,
    { batchSize: 10, burstWhenBatchFull: true, pollingIntervalSeconds: embedded ? 0.5 : 1, notifyPollingIntervalSeconds: 2, perJobResults: true },
    async (jobs) => (await Promise.all([...byOrder(jobs).values()].map(runInTurn))).flat(),
  );

  if (options.periodic !== false) {
    for (const task of periodicTasks()) await registerPeriodic(boss, task);
    await registerOrderImport(boss);
  }
  await registerBulkOrderJobs(boss, { periodic: options.periodic !== false }); // bulk orders (issue 5): lib/bulk-orders/bulk-jobs.ts
  logger.info("worker started", { embedded, periodic: options.periodic !== false });
  return {
    async stop() {
      await stopQueues();
    },
  };
}

/**
 * One order's events run one after another, different orders side by side: two re-reads of
 * the same order racing each other could let the older answer be written last.
 */
function byOrder(jobs: Job<ProcessJob>[]): Map<string, Job<ProcessJob>[]> {
  const groups = new Map<string, Job<ProcessJob>[]>();
  for (const job of jobs) {
    const key = job.data.orderId ? `order:${job.data.orderId}` : `job:${job.id}`;
    groups.set(key, [...(groups.get(key) ?? []), job]);
  }
  return groups;
}

async function runInTurn(jobs: Job<ProcessJob>[]): Promise<JobResult[]> {
  const results: JobResult[] = [];
  for (const job of jobs) {
    try {
      const { outcome, state } = await processEvent(job.data.eventId);
      // Claimed by someone else right now (the sweep, another job): look again after the
      // retry delay, so that if that attempt fails the event still has a job behind it.
      if (outcome === "skipped" && state === "processing") results.push({ id: job.id, status: "failed", output: { message: "being processed elsewhere; checking again later" } });
      else results.push({ id: job.id, status: "completed" });
    } catch (error) {
      results.push({ id: job.id, status: "failed", output: { message: error instanceof Error ? error.message : String(error) } });
    }
  }
  return results;
}

async function registerPeriodic(boss: PgBoss, task: Periodic): Promise<void> {
  await boss.work(task.name, { pollingIntervalSeconds: 1 }, async (jobs: Job<{ keeper?: boolean }>[]) => {
    try {
      for (const job of jobs) {
        // The keeper only makes sure a link exists (below); running the task too would double a pass.
        if (job.data?.keeper) continue;
        const result = await task.run();
        logger.debug("periodic job ran", { queue: task.name, jobId: job.id, result });
      }
    } catch (error) {
      logger.warn("periodic job failed", { queue: task.name, error: error instanceof Error ? error.message : String(error) });
    } finally {
      // Dropped by the queue when a link is already waiting: that is the "one chain" rule.
      await boss.send(task.name, {}, { singletonKey: CHAIN_KEY, startAfter: task.everySeconds }).catch((error: unknown) => {
        logger.warn("periodic job not re-queued; the minute keeper will restart it", { queue: task.name, error: String(error) });
      });
    }
  });
  // Run once now (a key of its own, so a link already waiting does not swallow it), and keep the chain alive.
  await boss.send(task.name, {}, { singletonKey: "startup" });
  await boss.schedule(task.name, "* * * * *", { keeper: true });
}
