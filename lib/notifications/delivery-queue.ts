import "server-only";
import type { Tx } from "@/lib/db/client";
import type { QueueSpec } from "@/lib/jobs/define-job";
import { HEARTBEAT_SECONDS } from "@/lib/jobs/queue";
import { insertJobs, onTransaction, readyQueue } from "@/lib/jobs/send-job";

/** A `notifications.send` job's data: the delivery row it sends (the row says what, to whom and whether still). */
export type DeliveryJob = { deliveryId: string };

/**
 * Where a delivery whose job ran out of attempts (or whose worker died on its last one) goes:
 * its handler marks the row failed, which the admin outbox shows with its reason.
 */
export const DELIVERY_DEAD_QUEUE: QueueSpec = {
  name: "notifications.send.dead",
  options: { policy: "standard", retryLimit: 3, deleteAfterSeconds: 30 * 86_400 },
};

/**
 * One job per delivery row. 12 attempts in all (about 6 hours of waits: 30–60 s, then doubling,
 * at most an hour apart); a worker that dies mid-send gives its job back after HEARTBEAT_SECONDS
 * (a send that hangs, after 2 minutes), and it is tried again under the same Message-ID. Kept a
 * day once done.
 */
export const DELIVERY_QUEUE: QueueSpec = {
  name: "notifications.send",
  options: {
    policy: "standard",
    retryLimit: 11,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 3_600,
    expireInSeconds: 120,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    deleteAfterSeconds: 86_400,
    deadLetter: DELIVERY_DEAD_QUEUE.name,
  },
  notify: true,
};

/** Attempts before a delivery is given up: the first and its retries. */
export const MAX_ATTEMPTS = (DELIVERY_QUEUE.options.retryLimit ?? 0) + 1;

/**
 * The earliest the queue tries a delivery again after its `attempts`-th attempt failed (pg-boss
 * waits between this and twice it): what the outbox shows as the row's due time.
 */
export function nextTryAfterMs(attempts: number): number {
  const { retryDelay = 30, retryDelayMax = 3_600 } = DELIVERY_QUEUE.options;
  return Math.min(retryDelayMax, retryDelay * 2 ** Math.max(0, attempts - 1)) * 1000;
}

/**
 * Queues the jobs that send these pending deliveries, in the caller's transaction: the rows
 * and their jobs commit or roll back together. Each starts at its row's due time (quiet hours,
 * a digest's period end), so nothing else waits for it.
 */
export async function queueDeliveries(tx: Tx, deliveries: { id: string; dueAt: Date }[]): Promise<void> {
  if (deliveries.length === 0) return;
  await insertJobs<DeliveryJob>(
    DELIVERY_QUEUE,
    deliveries.map(({ id, dueAt }) => ({ data: { deliveryId: id }, singletonKey: id, startAfter: dueAt })),
    onTransaction(tx),
  );
}

/** Starts this process's queue and creates the delivery queue, before a transaction that queues deliveries. */
export function readyDeliveries(): Promise<void> {
  return readyQueue(DELIVERY_QUEUE);
}
