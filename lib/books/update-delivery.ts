import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { DELIVERY_KEY, deliverySchema, type Delivery } from "./delivery-settings";
import { journalReaders } from "./journal-readers";

/** Finance chooses who receives the monthly journal link, among active staff who may read the books. */
export async function updateDelivery(actor: Actor, input: unknown): Promise<Delivery> {
  assertCan(actor, "books.close");
  const delivery = parseInput(deliverySchema, input);
  const readers = new Set((await journalReaders()).map((s) => s.id));
  if (delivery.recipientIds.some((id) => !readers.has(id)))
    throw new AppError("invalid_request", "Some fields are not valid.", {
      fieldErrors: { recipientIds: ["Choose people from the list: active staff who may read the books."] },
    });
  if (delivery.schedule === "monthly" && delivery.recipientIds.length === 0)
    throw new AppError("invalid_request", "Some fields are not valid.", {
      fieldErrors: { recipientIds: ["Choose at least one person to send it to."] },
    });
  await db().$transaction(async (tx) => {
    await tx.setting.upsert({
      where: { key: DELIVERY_KEY },
      create: { key: DELIVERY_KEY, value: delivery, updatedBy: actor.staffId },
      update: { value: delivery, updatedBy: actor.staffId },
    });
    await recordAudit(tx, {
      action: "books.delivery_updated",
      actor,
      targetId: DELIVERY_KEY,
      details: { schedule: delivery.schedule, format: delivery.format, recipients: delivery.recipientIds.length },
    });
  });
  return delivery;
}
