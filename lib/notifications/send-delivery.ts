import "server-only";
import type { Job, JobResult } from "pg-boss";
import { db, type Prisma } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { composeChat, composeDigest, composeEmail, type Item } from "./compose";
import type { Outcome } from "./delivery-policy";
import { MAX_ATTEMPTS, nextTryAfterMs, queueDeliveries, type DeliveryJob } from "./delivery-queue";
import { kindLabel } from "./kinds";
import { openChatWebhook } from "./chat-webhook";
import { postChat } from "./post-chat";
import { sendEmail } from "./send-email";
import { readWorkspaceNotifications } from "./workspace-settings";

const LOADED = {
  event: true,
  staff: { select: { email: true, active: true } },
  carried: { include: { event: true } },
} as const;

type Row = Prisma.NotificationDeliveryGetPayload<{ include: typeof LOADED }>;
type Settled = "sent" | "retrying" | "deferred" | "refused" | "exhausted" | "dropped" | "gone";

/**
 * One `notifications.send` job: sends its delivery row and marks it in the statement right
 * after the send. The row is the fence: a job for a row already sent (or failed, dropped) ends
 * without sending, so whatever runs a job twice sends once.
 *
 * Exactly once in effect: the one window left is a worker dying between the SMTP server's
 * "250 OK" and the mark. The row stays `sending`, pg-boss expires the job and runs it again,
 * and the copy goes out under the same Message-ID (send-email.ts), which lets the mail system or
 * the catcher drop it. Chat has no such id; its window is the same statement.
 *
 * A passing failure leaves the row pending with its reason and fails the job, which pg-boss
 * retries with its backoff (a chat 429's Retry-After, when longer, is a new job starting then);
 * the last attempt marks the row failed and sends the job to the dead-letter queue. A refusal
 * marks the row failed and ends the job.
 */
export async function sendDelivery(job: Job<DeliveryJob>): Promise<JobResult> {
  const settled = await send(job.data.deliveryId);
  if (settled === "retrying") return { id: job.id, status: "failed", output: { settled } };
  if (settled === "exhausted") return { id: job.id, status: "deadletter", output: { settled } };
  return { id: job.id, status: "completed", output: { settled } };
}

async function send(id: string): Promise<Settled> {
  const env = getEnv();
  const smtpUrl = env.SMTP_URL ?? null;
  const now = new Date();
  // Email waits, without counting an attempt, while no SMTP server is set up.
  const claimed = await db().$queryRaw<{ attempts: number }[]>`
    UPDATE "NotificationDelivery"
    SET "status" = 'sending', "attempts" = "attempts" + 1, "updatedAt" = ${now}
    WHERE "id" = ${id} AND "status" IN ('pending', 'sending') AND ("channel" = 'chat' OR ${smtpUrl !== null})
    RETURNING "attempts"`;
  const attempts = claimed[0]?.attempts;
  if (attempts === undefined) return smtpUrl ? "gone" : notConfigured(id);
  const row = await db().notificationDelivery.findUniqueOrThrow({ where: { id }, include: LOADED });
  let outcome: Outcome | "dropped";
  try {
    outcome = await sendOne(row, { smtpUrl, origin: env.APP_URL, from: env.MAIL_FROM });
  } catch (error) {
    outcome = { kind: "retry", reason: error instanceof Error ? error.message.slice(0, 300) : "unexpected error" };
  }
  return settle(id, attempts, outcome);
}

/** An email delivery while email is not set up: tried again later, the reason on the row. */
async function notConfigured(id: string): Promise<Settled> {
  const { count } = await db().notificationDelivery.updateMany({
    where: { id, status: "pending", channel: "email" },
    data: { lastError: "email is not set up (SMTP_URL)" },
  });
  return count > 0 ? "retrying" : "gone";
}

async function sendOne(
  row: Row,
  context: { smtpUrl: string | null; origin: string; from: string },
): Promise<Outcome | "dropped"> {
  if (row.channel === "chat") {
    const sealed = (await readWorkspaceNotifications(db())).chatWebhookSealed;
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

/** Marks the delivery by its outcome, if it is still the attempt this job made. */
async function settle(id: string, attempts: number, outcome: Outcome | "dropped"): Promise<Settled> {
  const now = new Date();
  const where = { id, status: "sending", attempts };
  if (outcome === "dropped") {
    await db().notificationDelivery.updateMany({
      where,
      data: { status: "dropped", lastError: "recipient inactive or channel removed", updatedAt: now },
    });
    return "dropped";
  }
  if (outcome.kind === "sent") {
    await db().notificationDelivery.updateMany({ where, data: { status: "sent", sentAt: now, lastError: null, updatedAt: now } });
    return "sent";
  }
  if (outcome.kind === "refused" || attempts >= MAX_ATTEMPTS) {
    const reason = outcome.kind === "refused" ? outcome.reason : `gave up after ${attempts} attempts: ${outcome.reason}`;
    await db().notificationDelivery.updateMany({ where, data: { status: "failed", lastError: reason, updatedAt: now } });
    return outcome.kind === "refused" ? "refused" : "exhausted";
  }
  const backoff = nextTryAfterMs(attempts);
  const retry = { status: "pending", lastError: outcome.reason, updatedAt: now };
  if ((outcome.notBeforeMs ?? 0) <= backoff) {
    await db().notificationDelivery.updateMany({ where, data: { ...retry, dueAt: new Date(now.getTime() + backoff) } });
    return "retrying";
  }
  // The server asked for a longer wait than the queue's backoff: this job ends, and the row's
  // next job (queued with the row's change) starts when the server said.
  const dueAt = new Date(now.getTime() + (outcome.notBeforeMs ?? 0));
  await db().$transaction(async (tx) => {
    const { count } = await tx.notificationDelivery.updateMany({ where, data: { ...retry, dueAt } });
    if (count > 0) await queueDeliveries(tx, [{ id, dueAt }]);
  });
  return "deferred";
}
