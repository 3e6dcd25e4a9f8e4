import "server-only";
import type { Job } from "pg-boss";
import { orderSyncConfig } from "@/lib/env";
import { defineJob, type JobContext, type JobDefinition, type QueueSpec } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { sendJob } from "@/lib/jobs/send-job";
import { logger } from "@/lib/log";
import { importOrdersPage } from "./import-orders-page";
import { noticeImportIfStuck } from "./import-notices";
import { reconcileOrders } from "./reconcile-orders";
import { resumePendingOrders } from "./resume-pending-orders";
import { syncOrders } from "./sync-orders";
import { ensureSyncState } from "./sync-state";

export const ORDER_QUEUES = {
  reconcile: periodicQueue("orders.reconcile", 300),
  resume: periodicQueue("orders.resume-pending", 600),
  // One page a job (a call and one INSERT): seconds, not minutes. Stately, since a job queues
  // its continuation while it still runs; no retries, the keeper below restarts a lost chain.
  import: {
    name: "orders.import",
    options: { policy: "stately", retryLimit: 0, expireInSeconds: 300, deleteAfterSeconds: 3_600 },
  } satisfies QueueSpec,
  sync: periodicQueue("orders.sync", 600),
} as const;

/** The singleton key of the import's waiting link. */
const CHAIN_KEY = "chain";

/**
 * The history import as a chain of jobs on `orders.import`: each job reads one page and
 * queues the next one when importOrdersPage says (its pacing), under one singleton key,
 * so however many workers run there is one walk. A paused or finished import queues
 * nothing; resuming queues a job (enqueueOrderImport). A per-minute keeper restarts a
 * chain whose link was lost while the import is still running.
 */
type ImportJob = { keeper?: boolean };
export const orderImportJob: JobDefinition = defineJob<ImportJob>({
  queue: ORDER_QUEUES.import,
  work: () => ({ pollingIntervalSeconds: 1 }),
  async handle(jobs, context) {
    for (const job of jobs) await runImportJob(job, context);
  },
  // First start against this upstream creates the import, running.
  schedule: { cron: "* * * * *", data: { keeper: true }, startup: true, setup: () => ensureSyncState() },
});

/** The orders' jobs, run by the worker. */
export const orderJobs: JobDefinition[] = [
  periodicJob({ queue: ORDER_QUEUES.reconcile, everySeconds: () => 5, run: () => reconcileOrders() }),
  periodicJob({ queue: ORDER_QUEUES.resume, everySeconds: () => 30, run: () => resumePendingOrders() }),
  // The safety net for missed webhooks; its interval and cost: lib/orders/sync-orders.ts.
  periodicJob({ queue: ORDER_QUEUES.sync, everySeconds: () => orderSyncConfig().syncIntervalSeconds, run: () => syncOrders() }),
  orderImportJob,
];

/** Asks a worker to continue the import now (after an admin resumed or restarted it). */
export async function enqueueOrderImport(): Promise<void> {
  await sendJob(ORDER_QUEUES.import, {}, { singletonKey: CHAIN_KEY });
}

async function runImportJob(job: Job<ImportJob>, context: JobContext): Promise<void> {
  let nextInMs: number | null = 15_000;
  try {
    if (job.data?.keeper) {
      const row = await ensureSyncState();
      nextInMs = row.importState === "running" ? 0 : null;
      await noticeImportIfStuck(row);
    } else {
      const step = await importOrdersPage();
      nextInMs = step.nextInMs;
      if (step.pageRead) logger.debug("order import page", { state: step.state });
    }
  } catch (error) {
    logger.warn("order import step failed; trying again shortly", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  if (nextInMs === null) return;
  const startAfter = Math.max(0, Math.ceil(nextInMs / 1000));
  // Dropped by the queue when a link is already waiting: that is the "one chain" rule.
  await sendJob(ORDER_QUEUES.import, {}, { singletonKey: CHAIN_KEY, ...(startAfter ? { startAfter } : {}) }, context).catch(
    (error: unknown) => {
      logger.warn("order import continuation not queued; the minute keeper will restart it", { error: String(error) });
    },
  );
}
