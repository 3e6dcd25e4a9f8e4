import "server-only";
import { db } from "@/lib/db/client";
import type { BalanceEvent } from "./balance-history";

type OrderRow = { status: string; totalMinor: bigint; createdAt: Date; upstreamCreatedAt: Date; upstreamUpdatedAt: Date };

/**
 * How an order moved the available balance, on this app's clock: its total was reserved
 * when this app recorded it; a failed order's reservation was released, a refunded
 * order's total came back, as long after that as the upstream's own times say (a
 * difference of two upstream times, so the upstream clock's offset cancels out). Capture
 * on fulfilment moves only the reserved part, not the available balance.
 */
export function orderToEvents(order: OrderRow): BalanceEvent[] {
  const events: BalanceEvent[] = [{ at: order.createdAt, deltaMinor: -order.totalMinor, kind: "order" }];
  const endedAt = new Date(
    order.createdAt.getTime() + Math.max(0, order.upstreamUpdatedAt.getTime() - order.upstreamCreatedAt.getTime()),
  );
  if (order.status === "failed") events.push({ at: endedAt, deltaMinor: order.totalMinor, kind: "order_release" });
  if (order.status === "refunded") events.push({ at: endedAt, deltaMinor: order.totalMinor, kind: "refund" });
  return events;
}

/** Movements of mirrored orders in one currency since `from` (this app's clock). */
export async function orderEvents(query: { currency: string; from: Date }): Promise<BalanceEvent[]> {
  const rows = await db().order.findMany({
    where: {
      currency: query.currency,
      OR: [{ createdAt: { gt: query.from } }, { status: { in: ["failed", "refunded"] }, updatedAt: { gt: query.from } }],
    },
    select: { status: true, totalMinor: true, createdAt: true, upstreamCreatedAt: true, upstreamUpdatedAt: true },
  });
  return rows.flatMap(orderToEvents).filter((e) => e.at > query.from);
}
