import "server-only";
import { db } from "@/lib/db/client";
import { claimEvents } from "./claim-events";
import type { EventState } from "./event-states";
import { handleClaimedEvent, type ProcessOutcome } from "./handle-claimed-event";

/**
 * Processes one inbox event if it is in one of `from` (pending, or failed and due for a retry).
 * The event's job calls this (jobs.ts); a job for an event already finished does nothing
 * ("skipped"), which is what makes a second job for it (an admin's reprocess) harmless.
 * Throws when processing failed, after recording it, so that the queue retries with backoff.
 */
export async function processEvent(
  eventId: string,
  from: readonly EventState[] = ["pending", "failed"],
): Promise<{ outcome: ProcessOutcome | "skipped"; state?: string }> {
  const [claimed] = await claimEvents([eventId], from);
  if (!claimed) {
    const current = await db().webhookEvent.findUnique({ where: { id: eventId }, select: { state: true } });
    return { outcome: "skipped", state: current?.state };
  }
  return { outcome: await handleClaimedEvent(claimed) };
}
