import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db, Prisma } from "@/lib/db/client";
import { cappedCount } from "@/lib/db/keyset-page";
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
/** Stuck orders are counted up to this many ("1,000+"): past it the figure says only that there are too many. */
export const STUCK_COUNT_CAP = 1_000;
const UPSTREAM_CLOCK_AHEAD_MS = 3_600_000;

export type OrderGroup = { count: number; capped?: boolean; items: OrderGlance[] };
export type OrdersNeedingSupport = { failed: OrderGroup; stuck: OrderGroup };

/**
 * The workspace's orders that failed in the last day (by when they failed) and those not
 * final after STUCK_AFTER_MINUTES, oldest stuck first (counted up to STUCK_COUNT_CAP). Failed
 * ones read the (status, upstreamUpdatedAt) index, stuck ones the status index: the few failed
 * or open orders, never the whole mirror.
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
    cappedCount((take) => countStuck(stuckWhere.upstreamCreatedAt.lt, take), STUCK_COUNT_CAP),
    oldestStuck(stuckWhere.upstreamCreatedAt.lt),
  ]);
  return {
    failed: { count: failedCount, items: failed.map(toGlance) },
    stuck: { count: stuckCount.total, capped: stuckCount.capped, items: stuck.map(toGlance) },
  };
}

type StuckRow = Parameters<typeof toGlance>[0];

/** Open orders placed before `placedBefore`, counted up to `take`, from the status index alone. */
async function countStuck(placedBefore: Date, take: number): Promise<number> {
  const [row] = await db().$queryRaw<{ count: bigint }[]>`
    SELECT count(*) AS "count" FROM (
      SELECT 1 FROM "Order"
      WHERE "status" IN (${Prisma.join([...OPEN_STATUSES])}) AND "upstreamCreatedAt" < ${placedBefore}
      LIMIT ${take}
    ) AS capped`;
  return Number(row?.count ?? 0);
}

/**
 * The oldest stuck orders: the oldest few of each open status from its own slice of the
 * (status, upstreamCreatedAt, id) index, then the oldest few of those. The planner, asked for
 * the oldest few open orders at once, walks the creation-time index from the oldest order of all
 * (open orders are the newest, so it reads nearly the whole mirror), or reads and sorts every
 * open order (30,000 among a million: docs/decisions/2026-11-29-a-million-orders.md).
 */
function oldestStuck(placedBefore: Date): Promise<StuckRow[]> {
  const oldestOf = (status: string) => Prisma.sql`(
      SELECT "id", "clientReference", "status", "totalMinor", "currency", "upstreamCreatedAt", "upstreamUpdatedAt", "lines"
      FROM "Order"
      WHERE "status" = ${status} AND "upstreamCreatedAt" < ${placedBefore}
      ORDER BY "upstreamCreatedAt" ASC, "id" ASC LIMIT ${SUPPORT_LIST_SIZE})`;
  return db().$queryRaw<StuckRow[]>`
    SELECT * FROM (${Prisma.join(OPEN_STATUSES.map(oldestOf), " UNION ALL ")}) AS open
    ORDER BY "upstreamCreatedAt" ASC, "id" ASC LIMIT ${SUPPORT_LIST_SIZE}`;
}
