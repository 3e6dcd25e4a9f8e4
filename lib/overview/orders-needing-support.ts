import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { OPEN_STATUSES } from "@/lib/orders/states";
import { glanceSelect, toGlance, type OrderGlance } from "./order-glance";

/**
 * An order still reserved or processing this long after it was created is stuck. The
 * upstream fulfils in seconds, and the reconciliation job re-reads open orders within
 * minutes, so one open after a quarter of an hour needs a person, not more waiting.
 */
export const STUCK_AFTER_MINUTES = 15;
/** Failed orders of the last day are shown: older ones have been dealt with or never will be. */
export const FAILED_WINDOW_HOURS = 24;
export const SUPPORT_LIST_SIZE = 5;

export type OrderGroup = { count: number; items: OrderGlance[] };
export type OrdersNeedingSupport = { failed: OrderGroup; stuck: OrderGroup };

/**
 * The workspace's orders that failed in the last day (by when they failed) and those not
 * final after STUCK_AFTER_MINUTES, oldest stuck first. Both read the (status,
 * upstreamUpdatedAt) index: the few failed or open orders, never the whole mirror.
 */
export async function ordersNeedingSupport(actor: Actor, now = new Date()): Promise<OrdersNeedingSupport> {
  assertCan(actor, "orders.read");
  const failedWhere = {
    status: "failed",
    upstreamUpdatedAt: { gte: new Date(now.getTime() - FAILED_WINDOW_HOURS * 3_600_000), lte: now },
  };
  const stuckWhere = {
    status: { in: [...OPEN_STATUSES] },
    upstreamCreatedAt: { lt: new Date(now.getTime() - STUCK_AFTER_MINUTES * 60_000) },
  };
  const [failedCount, failed, stuckCount, stuck] = await Promise.all([
    db().order.count({ where: failedWhere }),
    db().order.findMany({
      where: failedWhere,
      select: glanceSelect,
      orderBy: [{ upstreamUpdatedAt: "desc" }, { id: "desc" }],
      take: SUPPORT_LIST_SIZE,
    }),
    db().order.count({ where: stuckWhere }),
    db().order.findMany({
      where: stuckWhere,
      select: glanceSelect,
      orderBy: [{ upstreamCreatedAt: "asc" }, { id: "asc" }],
      take: SUPPORT_LIST_SIZE,
    }),
  ]);
  return {
    failed: { count: failedCount, items: failed.map(toGlance) },
    stuck: { count: stuckCount, items: stuck.map(toGlance) },
  };
}
