import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";

export type RevealRecord = { at: string; actorEmail: string | null; ticket: string; reason: string; revealCount: number | null; correlationId: string | null; ip: string | null };

/** Who saw an order's codes, when and why — never the codes. */
export async function revealHistory(actor: Actor, orderId: string): Promise<RevealRecord[]> {
  assertCan(actor, "orders.read");
  const rows = await db().auditEvent.findMany({ where: { action: "order.reveal", targetType: "order", targetId: orderId }, orderBy: { id: "desc" }, take: 200 });
  return rows.map((r) => {
    const details = (r.details ?? {}) as { ticket?: string; reason?: string; revealCount?: number };
    return { at: r.at.toISOString(), actorEmail: r.actorEmail, ticket: details.ticket ?? "", reason: details.reason ?? "", revealCount: details.revealCount ?? null, correlationId: r.correlationId, ip: r.ip };
  });
}

/** How many times each of these orders was revealed (for flags in lists). */
export async function revealCounts(orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const groups = await db().auditEvent.groupBy({ by: ["targetId"], where: { action: "order.reveal", targetType: "order", targetId: { in: orderIds } }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.targetId!, g._count._all]));
}
