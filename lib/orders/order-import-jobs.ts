import "server-only";
import type { Job, PgBoss } from "pg-boss";
import { getQueue, QUEUE } from "@/lib/jobs/queue";
import { logger } from "@/lib/log";
import { importOrdersPage } from "./import-orders-page";
import { ensureSyncState } from "./sync-state";

/**
 * The history import as a chain of jobs on `orders.import`: each job reads one page and
 * queues the next one when importOrdersPage says (its pacing), under one singleton key,
 * so however many workers run there is one walk. A paused or finished import queues
 * nothing; resuming queues a job (enqueueOrderImport). A per-minute keeper restarts a
 * chain whose link was lost while the import is still running.
 */
const CHAIN_KEY = "chain";
type ImportJob = { keeper?: boolean };

export async function registerOrderImport(boss: PgBoss): Promise<void> {
  await boss.work<ImportJob>(QUEUE.ordersImport, { pollingIntervalSeconds: 1 }, async (jobs) => {
    for (const job of jobs) await runImportJob(boss, job);
  });
  // First start against this upstream creates the import, running.
  await ensureSyncState();
  await boss.send(QUEUE.ordersImport, {}, { singletonKey: "startup" });
  await boss.schedule(QUEUE.ordersImport, "* * * * *", { keeper: true });
}

/** Asks a worker to continue the import now (after an admin resumed or restarted it). */
export async function enqueueOrderImport(): Promise<void> {
  const { boss } = await getQueue();
  await boss.send(QUEUE.ordersImport, {}, { singletonKey: CHAIN_KEY });
}

async function runImportJob(boss: PgBoss, job: Job<ImportJob>): Promise<void> {
  let nextInMs: number | null = 15_000;
  try {
    if (job.data?.keeper) {
      const row = await ensureSyncState();
      nextInMs = row.importState === "running" ? 0 : null;
    } else {
      const step = await importOrdersPage();
      nextInMs = step.nextInMs;
      if (step.pageRead) logger.debug("order import page", { state: step.state });
    }
  } catch (error) {
    logger.warn("order import step failed; trying again shortly", { error: error instanceof Error ? error.message : String(error) });
  }
  if (nextInMs === null) return;
  const startAfter = Math.max(0, Math.ceil(nextInMs / 1000));
  // Dropped by the queue when a link is already waiting: that is the "one chain" rule.
  await boss.send(QUEUE.ordersImport, {}, { singletonKey: CHAIN_KEY, ...(startAfter ? { startAfter } : {}) }).catch((error: unknown) => {
    logger.warn("order import continuation not queued; the minute keeper will restart it", { error: String(error) });
  });
}
