import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { enqueueEventProcessing } from "./enqueue-event";
import { REPROCESSABLE_STATES } from "./event-states";

export const eventIdSchema = z.string().regex(/^[0-9a-f]{32}$/, "Not an event id.");

/**
 * An admin sends a failed (or unknown-kind) event back to the queue. The state change and
 * its audit row commit together; the job is queued under its own key so that it runs now
 * rather than behind a retry that is waiting out its backoff. A pending row is also found
 * by the worker's sweep if the queue is unreachable.
 */
export async function reprocessEvent(actor: Actor, eventId: string): Promise<{ id: string; state: "pending"; queued: boolean }> {
  assertCan(actor, "events.manage");
  const id = eventIdSchema.parse(eventId);
  await db().$transaction(async (tx) => {
    const event = await tx.webhookEvent.findUnique({ where: { id }, select: { type: true, state: true, attempts: true } });
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
  });
  const queued = await enqueueEventProcessing(id, { singletonKey: `${id}:reprocess:${Date.now()}` }).then(
    () => true,
    (error: unknown) => {
      logger.warn("reprocess not queued; the sweep will pick the event up", { eventId: id, error: String(error) });
      return false;
    },
  );
  return { id, state: "pending", queued };
}
