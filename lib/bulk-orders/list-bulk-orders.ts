import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { cappedCount, type CappedCount } from "@/lib/db/keyset-page";
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
  const counts = await db().bulkOrderRow.groupBy({
    by: ["bulkOrderId", "state", "errorCode"],
    where: { bulkOrderId: { in: bulks.map((b) => b.id) } },
    _count: { _all: true },
  });
  return bulks.map((bulk) => {
    const mine = counts
      .filter((c) => c.bulkOrderId === bulk.id)
      .map((c) => ({ state: c.state, errorCode: c.errorCode, count: c._count._all }));
    return toSummary(bulk, progressFromCounts(mine, bulk.validCount));
  });
}

/** How many bulk orders the person has uploaded in all, up to the counting cap. */
export async function countBulkOrders(actor: Actor): Promise<CappedCount> {
  assertCan(actor, "orders.read");
  return cappedCount((take) => db().bulkOrder.count({ where: { createdById: actor.staffId }, take }));
}
