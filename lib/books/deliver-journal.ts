import "server-only";
import { db } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import { JOURNAL_LINK_DAYS, sealJournalLink } from "./delivery-link";
import { readDelivery } from "./delivery-settings";
import { periodOf, previousPeriod } from "./periods";

/**
 * The monthly delivery: once a month has ended, the people finance chose get a link to its
 * journal, through the notification outbox. Once per month (the event key): a choice made
 * mid-month sends the month before at the next pass, and later changes resend nothing.
 */
export async function deliverJournal(now = new Date()): Promise<{ period: string; sent: boolean }> {
  const period = previousPeriod(periodOf(now));
  const delivery = await readDelivery();
  if (delivery.schedule !== "monthly" || delivery.recipientIds.length === 0) return { period, sent: false };
  const key = `books.journal_ready:${period}`;
  if (await db().notificationEvent.findUnique({ where: { eventKey: key }, select: { eventKey: true } }))
    return { period, sent: false };
  const token = await sealJournalLink({ period, format: delivery.format });
  const expiresAt = new Date(now.getTime() + JOURNAL_LINK_DAYS * 86_400_000).toISOString();
  await db().$transaction((tx) =>
    notify(tx, "books.journal_ready", { period, format: delivery.format, token, expiresAt, recipientIds: delivery.recipientIds }),
  );
  return { period, sent: true };
}
