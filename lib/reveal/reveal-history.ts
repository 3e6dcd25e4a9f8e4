import "server-only";
import { db } from "@/lib/db/client";
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

/**
 * How many times each of these orders may have been revealed (for flags in lists): answered
 * reveals and those still without an answer, which the upstream may have served.
 */
export async function revealCounts(orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const groups = await db().codeReveal.groupBy({
    by: ["orderId"],
    where: { orderId: { in: orderIds }, state: { in: ["started", "succeeded"] } },
    _count: { _all: true },
  });
  return new Map(groups.map((g) => [g.orderId, g._count._all]));
}
