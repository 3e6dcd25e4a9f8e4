import "server-only";
import type { JobInsert } from "pg-boss";
import type { QueueSpec } from "@/lib/jobs/define-job";
import { HEARTBEAT_SECONDS } from "@/lib/jobs/queue";

/**
 * Each inbox event's processing is one job, inserted in the transaction that stores the event
 * (store-inbox-event.ts) or sends it back (reprocess-event.ts), so no event waits without a job.
 * Retries 5–10 s, doubling, at most 10 min apart (about 20 min in all); after the last the job
 * goes to `webhooks.dead` and the event stays `failed` with its reason for an admin to reprocess.
 * One event is bounded by refreshOrder's 60 s deadline: 5 min to expire; a worker that dies
 * gives its jobs back after HEARTBEAT_SECONDS. Declared here, beside its senders, not in jobs.ts.
 */
export const WEBHOOK_EVENT_QUEUE: QueueSpec = {
  name: "webhooks.events",
  options: {
    policy: "standard",
    retryLimit: 8,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 600,
    expireInSeconds: 300,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    deadLetter: "webhooks.dead",
    deleteAfterSeconds: 7 * 86_400,
  },
  notify: true,
};

export type EventJob = { eventId: string; orderId?: string };

/**
 * The job for one event. Its group is the order it is about (or the event itself): the worker
 * runs one job of a group at a time, in the order they were queued (jobs.ts), so one order's
 * events apply in turn and an event's jobs never overlap.
 */
export function eventJob(event: { id: string; payload: unknown }): JobInsert<EventJob> {
  const orderId = orderIdOf(event.payload);
  return {
    data: { eventId: event.id, ...(orderId ? { orderId } : {}) },
    group: { id: orderId ? `order:${orderId}` : `event:${event.id}` },
  };
}

/** The order an event is about (order events carry `data.orderId`), if any. */
function orderIdOf(payload: unknown): string | undefined {
  const orderId = (payload as { data?: { orderId?: unknown } } | null)?.data?.orderId;
  return typeof orderId === "string" && orderId ? orderId : undefined;
}
