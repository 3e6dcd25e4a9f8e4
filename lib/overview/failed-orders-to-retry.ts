import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { glanceSelect, toGlance, type OrderGlance } from "./order-glance";

/**
 * How far back a buyer's failed orders are shown for a retry. A failed order released its
 * funds and has no codes; after a week it has been bought again or is no longer wanted.
 */
export const RETRY_WINDOW_DAYS = 7;
export const RETRY_LIST_SIZE = 5;

export type FailedOrders = { count: number; items: OrderGlance[] };

/**
 * This person's orders that failed in the last week, newest first: each one is either
 * bought again (its product's page) or looked into (the order). Reads the buyer's slice
 * of the (placedById, upstreamCreatedAt) index.
 */
export async function failedOrdersToRetry(actor: Actor, now = new Date()): Promise<FailedOrders> {
  assertCan(actor, "orders.read");
  const since = new Date(now.getTime() - RETRY_WINDOW_DAYS * 86_400_000);
  const where = { placedById: actor.staffId, status: "failed", upstreamCreatedAt: { gte: since } };
  const [count, rows] = await Promise.all([
    db().order.count({ where }),
    db().order.findMany({
      where,
      select: glanceSelect,
      orderBy: [{ upstreamCreatedAt: "desc" }, { id: "desc" }],
      take: RETRY_LIST_SIZE,
    }),
  ]);
  return { count, items: rows.map(toGlance) };
}
