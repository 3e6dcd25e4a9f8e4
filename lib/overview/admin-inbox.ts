import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";

export type InboxOverview = {
  /** Webhook deliveries stored in the last 24 hours. */
  receivedLastDay: number;
  /** Events whose processing failed (all time: each waits for a retry or an admin). */
  failed: number;
  /** Pending or being processed now. */
  unprocessed: number;
  oldestUnprocessedAt: string | null;
};

/** The webhook inbox at a glance, for the admin home page; each figure one indexed count. */
export async function getInboxOverview(actor: Actor, now = new Date()): Promise<InboxOverview> {
  assertCan(actor, "events.read");
  const unprocessed = { state: { in: ["pending", "processing"] } };
  const [receivedLastDay, failed, open, oldest] = await Promise.all([
    db().webhookEvent.count({ where: { receivedAt: { gte: new Date(now.getTime() - 86_400_000) } } }),
    db().webhookEvent.count({ where: { state: "failed" } }),
    db().webhookEvent.count({ where: unprocessed }),
    db().webhookEvent.findFirst({ where: unprocessed, orderBy: { receivedAt: "asc" }, select: { receivedAt: true } }),
  ]);
  return { receivedLastDay, failed, unprocessed: open, oldestUnprocessedAt: oldest?.receivedAt.toISOString() ?? null };
}
