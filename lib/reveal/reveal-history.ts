import "server-only";
import { db, sqlQuery } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import type { RevealState } from "./reveal-states";

export type RevealRecord = {
  at: string;
  actorEmail: string | null;
  ticket: string;
  reason: string;
  state: RevealState;
  /** The upstream's count after this reveal; null until it answered. */
  revealCount: number | null;
  errorCode: string | null;
  correlationId: string | null;
  ip: string | null;
};

/** Who asked to see an order's codes, when, why and with what outcome — never the codes. */
export async function revealHistory(actor: Actor, orderId: string): Promise<RevealRecord[]> {
  assertCan(actor, "orders.read");
  const rows = await db().codeReveal.findMany({
    where: { orderId },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  return rows.map((r) => ({
    at: r.startedAt.toISOString(),
    actorEmail: r.actorEmail,
    ticket: r.ticket,
    reason: r.reason,
    state: r.state as RevealState,
    revealCount: r.revealCount,
    errorCode: r.errorCode,
    correlationId: r.upstreamCorrelationId ?? r.correlationId,
    ip: r.ip,
  }));
}

const COUNT_REVEALS = `
  SELECT "orderId", count(*)::int AS "reveals" FROM "CodeReveal"
  WHERE "orderId" = ANY($1::text[]) AND "state" IN ('started', 'succeeded')
  GROUP BY "orderId"`;

/**
 * How many times each of these orders may have been revealed (for flags in lists): answered
 * reveals and those still without an answer, which the upstream may have served. Every view
 * of the orders list asks, so through node-postgres (`sqlQuery`, prepared once per
 * connection) rather than Prisma's `groupBy`, which costs the app a few tenths of a
 * millisecond more per call (lib/db/client.ts).
 */
export async function revealCounts(orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const groups = await sqlQuery<{ orderId: string; reveals: number }>(COUNT_REVEALS, [orderIds]);
  return new Map(groups.map((g) => [g.orderId, g.reveals]));
}
