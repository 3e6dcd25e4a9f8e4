import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { ORDER_STATUSES, type OrderStatus } from "@/lib/orders/states";
import { utcDayStart } from "@/lib/spend/spend-window";
import { glanceSelect, toGlance, type OrderGlance } from "./order-glance";

/** How many of today's orders the home page lists; the counts cover all of them. */
export const TODAY_LIST_SIZE = 5;

export type OrdersToday = {
  /** The UTC day counted, "2026-11-23": staff in several time zones read one clock. */
  day: string;
  total: number;
  byStatus: { status: OrderStatus; count: number }[];
  latest: OrderGlance[];
};

/**
 * The orders this person placed today (UTC), counted by state in SQL, and the newest few.
 * Both read the (placedById, upstreamCreatedAt) index: one buyer's day, never the table.
 */
export async function ordersToday(actor: Actor, now = new Date()): Promise<OrdersToday> {
  assertCan(actor, "orders.read");
  const dayStart = utcDayStart(now);
  const where = { placedById: actor.staffId, upstreamCreatedAt: { gte: dayStart } };
  const [groups, latest] = await Promise.all([
    db().order.groupBy({ by: ["status"], where, _count: { _all: true } }),
    db().order.findMany({
      where,
      select: glanceSelect,
      orderBy: [{ upstreamCreatedAt: "desc" }, { id: "desc" }],
      take: TODAY_LIST_SIZE,
    }),
  ]);
  const counts = new Map(groups.map((g) => [g.status, g._count._all]));
  return {
    day: dayStart.toISOString().slice(0, 10),
    total: groups.reduce((sum, g) => sum + g._count._all, 0),
    byStatus: ORDER_STATUSES.filter((s) => counts.has(s)).map((status) => ({ status, count: counts.get(status)! })),
    latest: latest.map(toGlance),
  };
}
