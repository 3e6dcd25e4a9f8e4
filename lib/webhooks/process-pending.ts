import "server-only";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { claimEvents, type ClaimedEvent } from "./claim-events";
import { enqueueEventProcessing } from "./enqueue-event";
import { CLAIM_LEASE_MS } from "./event-states";
import { groupByOrder } from "./group-by-order";
import { handleClaimedEvent } from "./handle-claimed-event";

/** `handled`: outcome recorded (processed, unknown kind, or a payload that can never work); `failed`: queued for a retry. */
export type SweepResult = { claimed: number; handled: number; failed: number; released: number };

/**
 * Processes pending events that have waited longer than `olderThanMs`, oldest first: the
 * inbox drain (olderThanMs 0, drain-inbox.ts) and the periodic sweep (a drain request that
 * was lost, or drains that are behind) both run it. It also hands claims whose worker died
 * (lease expired) back as failed. Any number of sweeps
 * and jobs may run at once: a row is claimed by one conditional UPDATE (claim-events.ts),
 * so each event is processed by exactly one of them. A failure here is queued as a normal
 * job (under a key of its own, so that a job for the event that is still finishing does not
 * swallow it), which gives it the queue's retries and backoff.
 */
export async function processPendingEvents(
  options: { olderThanMs?: number; limit?: number; concurrency?: number } = {},
): Promise<SweepResult> {
  const released = await releaseExpiredClaims();
  const due = await db().webhookEvent.findMany({
    where: { state: "pending", receivedAt: { lte: new Date(Date.now() - (options.olderThanMs ?? 5_000)) } },
    orderBy: { receivedAt: "asc" },
    take: options.limit ?? 100,
    select: { id: true },
  });
  const claimed = await claimEvents(
    due.map((row) => row.id),
    ["pending"],
  );
  let handled = 0;
  let failed = 0;
  // One order's events in turn, different orders side by side (group-by-order.ts).
  const queue = groupByOrder(claimed, (event: ClaimedEvent) => orderIdOf(event.payload));
  const lanes = Array.from({ length: Math.max(1, options.concurrency ?? 5) }, async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      for (const event of group) {
        try {
          await handleClaimedEvent(event);
          handled += 1;
        } catch {
          failed += 1;
          // With its order id, so that the retry still runs in turn with that order's other events.
          await enqueueEventProcessing(event.id, {
            startAfterSeconds: 5,
            singletonKey: `${event.id}:sweep`,
            orderId: orderIdOf(event.payload),
          }).catch((error: unknown) => logger.warn("retry not queued", { eventId: event.id, error: String(error) }));
        }
      }
    }
  });
  await Promise.all(lanes);
  return { claimed: claimed.length, handled, failed, released };
}

async function releaseExpiredClaims(): Promise<number> {
  const expired = await db().webhookEvent.updateManyAndReturn({
    where: { state: "processing", processedAt: { lt: new Date(Date.now() - CLAIM_LEASE_MS) } },
    data: { state: "failed", lastError: "processing was interrupted (worker stopped); retrying", processedAt: null },
    select: { id: true, payload: true },
  });
  for (const { id, payload } of expired) await enqueueEventProcessing(id, { orderId: orderIdOf(payload) }).catch(() => undefined);
  if (expired.length) logger.warn("expired webhook claims released", { count: expired.length });
  return expired.length;
}

/** The order an event is about (order events carry `data.orderId`), if any. */
function orderIdOf(payload: unknown): string | undefined {
  const orderId = (payload as { data?: { orderId?: unknown } } | null)?.data?.orderId;
  return typeof orderId === "string" && orderId ? orderId : undefined;
}
