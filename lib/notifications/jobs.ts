import "server-only";
import type { Job } from "pg-boss";
import { db } from "@/lib/db/client";
import { defineJob, type JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { getEnv } from "@/lib/env";
import { adoptDeliveries } from "./adopt-deliveries";
import { collectDigests } from "./collect-digests";
import { DELIVERY_DEAD_QUEUE, DELIVERY_QUEUE, type DeliveryJob } from "./delivery-queue";
import { sendDelivery } from "./send-delivery";
import { pruneNotifications } from "./prune";

export const NOTIFICATION_QUEUES = {
  // One digest pass at a time (its held rows are locked FOR UPDATE besides). A worker killed
  // mid-pass leaves its beat active on this exclusive queue until pg-boss expires it: kept short.
  digests: periodicQueue("notifications.digests", 30),
  prune: periodicQueue("notifications.prune", 600),
} as const;

/** This process's one look for open deliveries without a job (adopt-deliveries.ts), at its first digest pass. */
let adopting: Promise<{ adopted: number }> | null = null;

/** Sends at once per worker: a batch of this many, each its own send (at most about 50 s: connect, greet, send). */
const SENDS_AT_ONCE = 4;

export const notificationJobs: JobDefinition[] = [
  defineJob<DeliveryJob>({
    queue: DELIVERY_QUEUE,
    // Per-job results: one delivery that fails is retried alone. PGlite has no NOTIFY: its poll
    // is what picks up a new delivery (at most half a second late). On PostgreSQL a new job
    // NOTIFYs, but a retry or a delivery held for later falls due silently: the poll finds it.
    work: (embedded) => ({
      batchSize: SENDS_AT_ONCE,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: embedded ? 0.5 : 2,
      notifyPollingIntervalSeconds: 2,
      perJobResults: true,
    }),
    handle: (jobs) => Promise.all(jobs.map(sendDelivery)),
  }),
  defineJob<DeliveryJob>({
    queue: DELIVERY_DEAD_QUEUE,
    work: () => ({ batchSize: 10, pollingIntervalSeconds: 5 }),
    handle: async (jobs) => void (await Promise.all(jobs.map(markGivenUp))),
  }),
  periodicJob({
    queue: NOTIFICATION_QUEUES.digests,
    everySeconds: () => getEnv().NOTIFY_DELIVERY_INTERVAL_SECONDS,
    run: async () => {
      adopting ??= adoptDeliveries().catch((error: unknown) => {
        adopting = null;
        throw error;
      });
      return { ...(await adopting), ...(await collectDigests()) };
    },
  }),
  periodicJob({ queue: NOTIFICATION_QUEUES.prune, everySeconds: () => 3600, run: () => pruneNotifications() }),
];

/**
 * A delivery whose job ran out of attempts without its row saying so (its worker died on the
 * last one, or email was never set up) is failed, with the last reason, for the admin outbox.
 */
async function markGivenUp(job: Job<DeliveryJob>): Promise<void> {
  const row = await db().notificationDelivery.findUnique({ where: { id: job.data.deliveryId } });
  if (!row || (row.status !== "pending" && row.status !== "sending")) return;
  await db().notificationDelivery.updateMany({
    where: { id: row.id, status: row.status, attempts: row.attempts },
    data: {
      status: "failed",
      lastError: `gave up after ${row.attempts} attempts: ${row.lastError ?? "the worker stopped while sending"}`.slice(0, 400),
      updatedAt: new Date(),
    },
  });
}
