import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { composeChat, composeDigest, composeEmail, type Item } from "./compose";
import { MAX_ATTEMPTS, retryDelayMs, type Outcome } from "./delivery-policy";
import { kindLabel } from "./kinds";
import { openChatWebhook } from "./chat-webhook";
import { postChat } from "./post-chat";
import { sendEmail } from "./send-email";
import { readWorkspaceNotifications } from "./workspace-settings";

/** How long a claim holds a delivery; past it, a worker that died mid-send is presumed gone and the delivery is claimed again. */
export const LEASE_MS = 2 * 60_000;
const SENDS_AT_ONCE = 4;

export type DeliverOptions = {
  /** The clock (tests drive backoff with it). */
  now?: Date;
  limit?: number;
  /** Defaults to SMTP_URL; null: email is not configured and email deliveries wait. */
  smtpUrl?: string | null;
  random?: () => number;
};
export type DeliverTally = { claimed: number; sent: number; retrying: number; failed: number; dropped: number };

type Claimed = { id: string; attempts: number };

const LOADED = {
  event: true,
  staff: { select: { email: true, active: true } },
  carried: { include: { event: true } },
} as const;

/**
 * One pass of the outbox: claim what is due (row locks, SKIP LOCKED, so two workers never
 * take the same delivery), send each, and mark each in the database right after its send.
 *
 * Exactly once in effect: a delivery is marked sent only after the SMTP server or the chat
 * webhook accepted it, and the mark is the next statement. The one window left is a worker
 * dying between the two (after the server's "250 OK", before the UPDATE): the lease runs out and
 * the delivery is sent again, with the same Message-ID (send-email.ts), which lets the mail
 * system or the catcher drop the copy. Chat has no such id; its window is the same statement.
 */
export async function deliverDue(options: DeliverOptions = {}): Promise<DeliverTally> {
  const now = options.now ?? new Date();
  const env = getEnv();
  const smtpUrl = options.smtpUrl === undefined ? (env.SMTP_URL ?? null) : options.smtpUrl;
  const channels = smtpUrl ? ["email", "chat"] : ["chat"];
  const claimed = await db().$queryRaw<Claimed[]>`
    UPDATE "NotificationDelivery" d
    SET "status" = 'sending', "attempts" = d."attempts" + 1,
        "leaseUntil" = ${new Date(now.getTime() + LEASE_MS)}, "updatedAt" = ${now}
    WHERE d."id" IN (
      SELECT "id" FROM "NotificationDelivery"
      WHERE (("status" = 'pending' AND "dueAt" <= ${now}) OR ("status" = 'sending' AND "leaseUntil" <= ${now}))
        AND "channel" = ANY(${channels}::text[])
      ORDER BY "dueAt"
      LIMIT ${options.limit ?? 100}
      FOR UPDATE SKIP LOCKED)
    RETURNING d."id", d."attempts"`;
  const tally: DeliverTally = { claimed: claimed.length, sent: 0, retrying: 0, failed: 0, dropped: 0 };
  if (claimed.length === 0) return tally;

  const rows = await db().notificationDelivery.findMany({
    where: { id: { in: claimed.map((c) => c.id) } },
    include: LOADED,
  });
  const workspace = rows.some((r) => r.channel === "chat") ? await readWorkspaceNotifications(db()) : null;
  const attemptsOf = new Map(claimed.map((c) => [c.id, c.attempts]));

  const queue = [...rows];
  const sendNext = async (): Promise<void> => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const attempts = attemptsOf.get(row.id) ?? 1;
      let outcome: Outcome | "dropped";
      try {
        outcome = await sendOne(row, { smtpUrl, workspace, origin: env.APP_URL, from: env.MAIL_FROM });
      } catch (error) {
        outcome = { kind: "retry", reason: error instanceof Error ? error.message.slice(0, 300) : "unexpected error" };
      }
      const state = await settle(row.id, attempts, outcome, now, options.random);
      tally[state] += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SENDS_AT_ONCE, rows.length) }, sendNext));
  if (tally.failed > 0 || tally.retrying > 0) logger.info("notification deliveries not sent", { ...tally });
  return tally;
}

type Row = Prisma.NotificationDeliveryGetPayload<{ include: typeof LOADED }>;

async function sendOne(
  row: Row,
  context: {
    smtpUrl: string | null;
    workspace: Awaited<ReturnType<typeof readWorkspaceNotifications>> | null;
    origin: string;
    from: string;
  },
): Promise<Outcome | "dropped"> {
  if (row.channel === "chat") {
    const sealed = context.workspace?.chatWebhookSealed;
    if (!row.event || !sealed) return "dropped";
    return postChat(openChatWebhook(sealed), composeChat(itemOf(row.event), context.origin));
  }
  // Inactive (or removed) staff never receive, whatever was recorded for them.
  if (!row.staff?.active || !context.smtpUrl) return "dropped";
  const email = row.event
    ? composeEmail(itemOf(row.event), context.origin)
    : composeDigest(
        row.carried.flatMap((c) => (c.event ? [itemOf(c.event)] : [])),
        context.origin,
      );
  return sendEmail(context.smtpUrl, { ...email, to: row.staff.email, from: context.from, deliveryKey: row.deliveryKey });
}

function itemOf(event: { title: string; body: string | null; link: string; kind: string; createdAt: Date }): Item {
  return { title: event.title, body: event.body, link: event.link, kindLabel: kindLabel(event.kind), at: event.createdAt };
}

/** Marks one claimed delivery by its outcome; a claim that ran out and was taken again is left to its new holder. */
async function settle(
  id: string,
  attempts: number,
  outcome: Outcome | "dropped",
  now: Date,
  random?: () => number,
): Promise<"sent" | "retrying" | "failed" | "dropped"> {
  const where = { id, status: "sending", attempts };
  const done = { leaseUntil: null, updatedAt: now };
  if (outcome === "dropped") {
    await db().notificationDelivery.updateMany({
      where,
      data: { ...done, status: "dropped", lastError: "recipient inactive or channel removed" },
    });
    return "dropped";
  }
  if (outcome.kind === "sent") {
    await db().notificationDelivery.updateMany({ where, data: { ...done, status: "sent", sentAt: now, lastError: null } });
    return "sent";
  }
  if (outcome.kind === "refused" || attempts >= MAX_ATTEMPTS) {
    const reason = outcome.kind === "refused" ? outcome.reason : `gave up after ${attempts} attempts: ${outcome.reason}`;
    await db().notificationDelivery.updateMany({ where, data: { ...done, status: "failed", lastError: reason } });
    return "failed";
  }
  const wait = Math.max(retryDelayMs(attempts, random), outcome.notBeforeMs ?? 0);
  await db().notificationDelivery.updateMany({
    where,
    data: { ...done, status: "pending", dueAt: new Date(now.getTime() + wait), lastError: outcome.reason },
  });
  return "retrying";
}
