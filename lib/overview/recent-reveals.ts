import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import type { RevealState } from "@/lib/reveal/reveal-states";
import { getSettings } from "@/lib/settings/get-settings";

export const REVEALS_LIST_SIZE = 5;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export type RecentReveal = {
  at: string;
  actorEmail: string | null;
  orderId: string;
  clientReference: string | null;
  ticket: string;
  state: RevealState;
};

export type RecentReveals = {
  /** Reveal attempts by anyone in the last 24 hours. */
  lastDay: number;
  items: RecentReveal[];
  /** This person's attempts in the last hour, against the hourly quota that start-reveal enforces. */
  mine: { used: number; quota: number };
};

/**
 * The newest reveal attempts of the workspace (the CodeReveal records, never codes), how
 * many there were in the last day, and how much of their hourly quota this person has used
 * (counted as start-reveal counts it: every attempt of the last hour, whatever its outcome).
 */
export async function recentReveals(actor: Actor, now = new Date()): Promise<RecentReveals> {
  assertCan(actor, "codes.reveal");
  const [lastDay, rows, used, { revealQuotaPerHour }] = await Promise.all([
    db().codeReveal.count({ where: { startedAt: { gt: new Date(now.getTime() - DAY_MS) } } }),
    db().codeReveal.findMany({
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: REVEALS_LIST_SIZE,
      select: { startedAt: true, actorEmail: true, orderId: true, ticket: true, state: true },
    }),
    db().codeReveal.count({ where: { staffId: actor.staffId, startedAt: { gt: new Date(now.getTime() - HOUR_MS) } } }),
    getSettings(),
  ]);
  const orders = await db().order.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.orderId))] } },
    select: { id: true, clientReference: true },
  });
  const references = new Map(orders.map((o) => [o.id, o.clientReference]));
  return {
    lastDay,
    items: rows.map((r) => ({
      at: r.startedAt.toISOString(),
      actorEmail: r.actorEmail,
      orderId: r.orderId,
      clientReference: references.get(r.orderId) ?? null,
      ticket: r.ticket,
      state: r.state as RevealState,
    })),
    mine: { used, quota: revealQuotaPerHour },
  };
}
