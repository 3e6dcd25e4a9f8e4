import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db, Prisma } from "@/lib/db/client";
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
const UPSTREAM_CLOCK_AHEAD_MS = 3_600_000;

export type OrderGroup = { count: number; items: OrderGlance[] };
export type OrdersNeedingSupport = { failed: OrderGroup; stuck: OrderGroup };

/**
 * The workspace's orders that failed in the last day (by when they failed) and those not
 * final after STUCK_AFTER_MINUTES, oldest stuck first. Failed ones read the (status,
 * upstreamUpdatedAt) index, stuck ones the status index: the few failed or open orders,
 * never the whole mirror.
 */
export async function ordersNeedingSupport(actor: Actor, now = new Date()): Promise<OrdersNeedingSupport> {
  assertCan(actor, "orders.read");
  const failedWhere = {
    status: "failed",
    // Up to an hour past our "now": the upstream's clock may run a little ahead of ours, and a
    // failure it stamped a moment "in the future" is the freshest of all, not one to hide.
    upstreamUpdatedAt: {
      gte: new Date(now.getTime() - FAILED_WINDOW_HOURS * 3_600_000),
      lte: new Date(now.getTime() + UPSTREAM_CLOCK_AHEAD_MS),
    },
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
    oldestStuck(stuckWhere.upstreamCreatedAt.lt),
  ]);
  return {
    failed: { count: failedCount, items: failed.map(toGlance) },
    stuck: { count: stuckCount, items: stuck.map(toGlance) },
  };
}

type StuckRow = Parameters<typeof toGlance>[0];

/**
 * The oldest stuck orders. Written in SQL because the planner, asked for the oldest few
 * open orders, walks the creation-time index from the oldest order of all (open orders are
 * the newest, so it reads nearly the whole mirror). The MATERIALIZED step makes it take the
 * few open orders from the status index first (docs/decisions/0010-reads-at-100000-orders.md).
 */
function oldestStuck(placedBefore: Date): Promise<StuckRow[]> {
  return db().$queryRaw<StuckRow[]>`
    WITH open AS MATERIALIZED (
      SELECT "id", "clientReference", "status", "totalMinor", "currency", "upstreamCreatedAt", "upstreamUpdatedAt", "lines"
      FROM "Order"
      WHERE "status" IN (${Prisma.join([...OPEN_STATUSES])}) AND "upstreamCreatedAt" < ${placedBefore}
    )
    SELECT * FROM open ORDER BY "upstreamCreatedAt" ASC, "id" ASC LIMIT ${SUPPORT_LIST_SIZE}`;
}
