import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { escapeUnstorable } from "@/lib/db/unstorable-text";

/** The most of a refused body kept for the admin (the receiver reads at most 256 KiB). */
const KEPT_BODY_CHARS = 64 * 1024;

export type Refusal = { eventId: string; type: string; occurredAt: Date | null; body: string; reason: string };

/**
 * Puts a signed delivery the inbox can never hold into the inbox as `refused`, so that an
 * admin sees it on the Events page: its id, kind, time, why, and the body as received with
 * the characters the database refuses written as `\uXXXX`. A redelivery of the same event
 * counts another attempt on the same row. Never processed, never reprocessable.
 */
export async function recordRefusedEvent(refusal: Refusal): Promise<void> {
  const now = new Date();
  const utc = (d: Date | null) => (d ? Prisma.sql`(${d.toISOString()}::timestamptz AT TIME ZONE 'UTC')` : Prisma.sql`NULL`);
  const payload = JSON.stringify({
    refusedBody: escapeUnstorable(refusal.body.slice(0, KEPT_BODY_CHARS)),
    truncated: refusal.body.length > KEPT_BODY_CHARS,
  });
  const reason = escapeUnstorable(refusal.reason).slice(0, 1000);
  await db().$executeRaw`
    INSERT INTO "WebhookEvent" ("id", "type", "occurredAt", "receivedAt", "payload", "state", "attempts", "lastError", "processedAt")
    VALUES (${refusal.eventId}, ${refusal.type}, ${utc(refusal.occurredAt)}, ${utc(now)}, ${payload}::jsonb, 'refused', 1, ${reason}, ${utc(now)})
    ON CONFLICT ("id") DO UPDATE SET "attempts" = "WebhookEvent"."attempts" + 1, "processedAt" = EXCLUDED."processedAt"
      WHERE "WebhookEvent"."state" = 'refused'`;
}
