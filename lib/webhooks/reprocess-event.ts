import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { insertJobs, onTransaction, readyQueue } from "@/lib/jobs/send-job";
import { eventJob, WEBHOOK_EVENT_QUEUE } from "./event-job";
import { REPROCESSABLE_STATES } from "./event-states";

export const eventIdSchema = z.string().regex(/^[0-9a-f]{32}$/, "Not an event id.");

/**
 * An admin sends a failed (or unknown-kind) event back to the queue. The state change, its
 * audit row and a new job for the event commit together; the new job runs now rather than
 * behind a retry waiting out its backoff (an event's jobs never overlap: event-job.ts).
 */
export async function reprocessEvent(actor: Actor, eventId: string): Promise<{ id: string; state: "pending"; queued: boolean }> {
  assertCan(actor, "events.manage");
  const id = eventIdSchema.parse(eventId);
  await readyQueue(WEBHOOK_EVENT_QUEUE); // before the transaction: see insertJobs
  await db().$transaction(async (tx) => {
    const event = await tx.webhookEvent.findUnique({
      where: { id },
      select: { type: true, state: true, attempts: true, payload: true },
    });
    if (!event) throw new AppError("not_found", "There is no such event.");
    const { count } = await tx.webhookEvent.updateMany({
      where: { id, state: { in: [...REPROCESSABLE_STATES] } },
      data: { state: "pending" },
    });
    if (count === 0)
      throw new AppError("conflict", `Only failed or unknown-kind events can be reprocessed; this one is ${event.state}.`);
    await recordAudit(tx, {
      action: "webhook.reprocess",
      actor,
      targetId: id,
      details: { type: event.type, previousState: event.state, attempts: event.attempts },
    });
    await insertJobs(WEBHOOK_EVENT_QUEUE, [eventJob({ id, payload: event.payload })], onTransaction(tx));
  });
  return { id, state: "pending", queued: true };
}
