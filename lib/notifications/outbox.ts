import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { getEnv } from "@/lib/env";
import { kindLabel } from "./kinds";

/** How the admin outbox names a delivery's state; "retrying" is a pending one that failed before. */
export const OUTBOX_STATES = ["waiting", "retrying", "failed", "sent", "held", "other"] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export type OutboxRow = {
  id: string;
  state: OutboxState;
  channel: string;
  recipient: string;
  what: string;
  kind: string;
  attempts: number;
  reason: string | null;
  dueAt: string;
  updatedAt: string;
  sentAt: string | null;
};

function stateOf(status: string, attempts: number): OutboxState {
  if (status === "pending" || status === "sending") return attempts > 0 && status === "pending" ? "retrying" : "waiting";
  if (status === "failed" || status === "sent" || status === "held") return status;
  return "other";
}

/**
 * The admin outbox (beside the Events page): counts by state and the latest deliveries, or
 * only one state's. Recipients are shown by address; nothing here is secret (a reason is the
 * SMTP server's or the webhook's answer, never the URL).
 */
export async function listOutbox(actor: Actor, filter: { state?: string } = {}) {
  assertCan(actor, "notifications.outbox");
  const where =
    filter.state === "failed"
      ? { status: "failed" }
      : filter.state === "retrying"
        ? { status: "pending", attempts: { gt: 0 } }
        : filter.state === "waiting"
          ? { status: { in: ["pending", "sending"] } }
          : filter.state === "sent"
            ? { status: "sent" }
            : {};
  const [groups, rows] = await Promise.all([
    db().notificationDelivery.groupBy({ by: ["status"], _count: { _all: true } }),
    db().notificationDelivery.findMany({
      where,
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: 100,
      include: {
        event: { select: { title: true, kind: true } },
        staff: { select: { email: true } },
        _count: { select: { carried: true } },
      },
    }),
  ]);
  const retrying = await db().notificationDelivery.count({ where: { status: "pending", attempts: { gt: 0 } } });
  const count = (status: string) => groups.find((g) => g.status === status)?._count._all ?? 0;
  const env = getEnv();
  return {
    counts: {
      waiting: count("pending") + count("sending") - retrying,
      retrying,
      failed: count("failed"),
      sent: count("sent"),
      held: count("held"),
    },
    emailConfigured: Boolean(env.SMTP_URL),
    mailCatcher: env.MAIL_CATCHER === "1",
    rows: rows.map((d): OutboxRow => ({
      id: d.id,
      state: stateOf(d.status, d.attempts),
      channel: d.channel,
      recipient: d.channel === "chat" ? "chat webhook" : (d.staff?.email ?? "(removed)"),
      what: d.event?.title ?? `Digest of ${d._count.carried} notification${d._count.carried === 1 ? "" : "s"}`,
      kind: d.event ? kindLabel(d.event.kind) : "Digest",
      attempts: d.attempts,
      reason: d.lastError,
      dueAt: d.dueAt.toISOString(),
      updatedAt: d.updatedAt.toISOString(),
      sentAt: d.sentAt?.toISOString() ?? null,
    })),
  };
}

/** The local mail catcher's mail, newest first (admins; local mode). */
export async function listCaughtMail(actor: Actor) {
  assertCan(actor, "notifications.outbox");
  return db().caughtMail.findMany({
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: 200,
    select: { id: true, to: true, subject: true, receivedAt: true },
  });
}

export async function readCaughtMail(actor: Actor, id: string) {
  assertCan(actor, "notifications.outbox");
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  return db().caughtMail.findUnique({ where: { id } });
}
