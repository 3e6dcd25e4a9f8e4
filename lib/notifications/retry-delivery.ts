import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { queueDeliveries, readyDeliveries } from "./delivery-queue";

const idSchema = z.uuid();

/**
 * An admin sends a failed delivery again (after fixing the address or the webhook): it is due
 * at once with a fresh count of attempts; the state change, its job and its audit row commit together.
 */
export async function retryDelivery(actor: Actor, deliveryId: string): Promise<{ id: string; state: "waiting" }> {
  assertCan(actor, "notifications.outbox");
  const parsed = idSchema.safeParse(deliveryId);
  if (!parsed.success) throw new AppError("not_found", "There is no such delivery.");
  const id = parsed.data;
  await readyDeliveries();
  await db().$transaction(async (tx) => {
    const delivery = await tx.notificationDelivery.findUnique({
      where: { id },
      select: { status: true, channel: true, attempts: true, lastError: true },
    });
    if (!delivery) throw new AppError("not_found", "There is no such delivery.");
    const dueAt = new Date();
    const { count } = await tx.notificationDelivery.updateMany({
      where: { id, status: "failed" },
      data: { status: "pending", dueAt, attempts: 0 },
    });
    if (count === 0) throw new AppError("conflict", `Only a failed delivery can be sent again; this one is ${delivery.status}.`);
    await queueDeliveries(tx, [{ id, dueAt }]);
    await recordAudit(tx, {
      action: "notification.retry",
      actor,
      targetId: id,
      details: { channel: delivery.channel, attempts: delivery.attempts, lastError: delivery.lastError },
    });
  });
  return { id, state: "waiting" };
}
