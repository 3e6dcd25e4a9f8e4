import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { JOURNAL_FORMAT_NAMES, type JournalFormat } from "./journal-formats";

/** The Setting row finance's delivery choice is kept in. */
export const DELIVERY_KEY = "bookDelivery";

export const deliverySchema = z.strictObject({
  /** monthly: on the first of each month, the month before; off: never. */
  schedule: z.enum(["off", "monthly"], { error: "Choose monthly or off." }),
  format: z.enum(JOURNAL_FORMAT_NAMES as [JournalFormat, ...JournalFormat[]], { error: "Choose a format." }),
  recipientIds: z
    .array(z.uuid({ error: "Choose people from the list." }))
    .max(20, "At most 20 people.")
    .refine((ids) => new Set(ids).size === ids.length, "Each person once."),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const NO_DELIVERY: Delivery = { schedule: "off", format: "plain", recipientIds: [] };

/** The stored choice, or none when nothing (valid) is stored. */
export async function readDelivery(): Promise<Delivery> {
  const row = await db().setting.findUnique({ where: { key: DELIVERY_KEY } });
  const parsed = deliverySchema.safeParse(row?.value);
  return parsed.success ? parsed.data : NO_DELIVERY;
}
