import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { cappedCount, type CappedCount } from "@/lib/db/keyset-page";
import { OPEN_STATUSES } from "@/lib/orders/states";
import { progressFromCounts, toSummary, type BulkOrderSummary } from "./bulk-view";

/** The person's own recent bulk orders, newest first, to resume or look back at. */
export async function listBulkOrders(actor: Actor, options: { limit?: number } = {}): Promise<BulkOrderSummary[]> {
  assertCan(actor, "orders.read");
  const bulks = await db().bulkOrder.findMany({
    where: { createdById: actor.staffId },
    orderBy: { createdAt: "desc" },
    take: Math.min(100, Math.max(1, options.limit ?? 20)),
  });
  if (bulks.length === 0) return [];
  const ids = bulks.map((b) => b.id);
  const counts = await db().bulkOrderRow.groupBy({
    by: ["bulkOrderId", "state", "errorCode"],
    where: { bulkOrderId: { in: ids } },
    _count: { _all: true },
  });
  const open = await ordersOpen(ids);
  return bulks.map((bulk) => {
    const mine = counts
      .filter((c) => c.bulkOrderId === bulk.id)
      .map((c) => ({ state: c.state, errorCode: c.errorCode, count: c._count._all }));
    return toSummary(bulk, progressFromCounts(mine, bulk.validCount), open.get(bulk.id) ?? 0);
  });
}

/**
 * Per bulk order, its placed rows whose order is still on its way: counted in the database
 * (a file may have thousands of rows), by isOrderOpen's rule (bulk-view.ts): an open status
 * of OPEN_STATUSES, or no mirrored order yet.
 */
async function ordersOpen(bulkOrderIds: string[]): Promise<Map<string, number>> {
  const rows = await db().$queryRaw<{ bulkOrderId: string; count: bigint }[]>`
    SELECT r."bulkOrderId", count(*) AS "count"
    FROM "BulkOrderRow" r LEFT JOIN "Order" o ON o."id" = r."orderId"
    WHERE r."bulkOrderId" IN (${Prisma.join(bulkOrderIds)}) AND r."state" = 'placed'
      AND (o."id" IS NULL OR o."status" IN (${Prisma.join(OPEN_STATUSES)}))
    GROUP BY r."bulkOrderId"`;
  return new Map(rows.map((r) => [r.bulkOrderId, Number(r.count)]));
}

/** How many bulk orders the person has uploaded in all, up to the counting cap. */
export async function countBulkOrders(actor: Actor): Promise<CappedCount> {
  assertCan(actor, "orders.read");
  return cappedCount((take) => db().bulkOrder.count({ where: { createdById: actor.staffId }, take }));
}
