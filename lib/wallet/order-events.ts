import "server-only";
import { db } from "@/lib/db/client";
import type { BalanceEvent } from "./balance-history";

type OrderRow = { status: string; totalMinor: bigint; upstreamCreatedAt: Date; upstreamUpdatedAt: Date };

/**
 * How an order moved the available balance: its total was reserved at creation; a failed
 * order's reservation was released, a refunded order's total came back (both at the last
 * change the mirror knows, the closest time recorded). Capture on fulfilment moves only
 * the reserved part, not the available balance.
 */
export function orderToEvents(order: OrderRow): BalanceEvent[] {
  const events: BalanceEvent[] = [{ at: order.upstreamCreatedAt, deltaMinor: -order.totalMinor, kind: "order" }];
  if (order.status === "failed") events.push({ at: order.upstreamUpdatedAt, deltaMinor: order.totalMinor, kind: "order_release" });
  if (order.status === "refunded") events.push({ at: order.upstreamUpdatedAt, deltaMinor: order.totalMinor, kind: "refund" });
  return events;
}

/** Movements of mirrored orders in one currency since `from`. */
export async function orderEvents(query: { currency: string; from: Date }): Promise<BalanceEvent[]> {
  const rows = await db().order.findMany({
    where: { currency: query.currency, OR: [{ upstreamCreatedAt: { gt: query.from } }, { upstreamUpdatedAt: { gt: query.from } }] },
    select: { status: true, totalMinor: true, upstreamCreatedAt: true, upstreamUpdatedAt: true },
  });
  return rows.flatMap(orderToEvents);
}
