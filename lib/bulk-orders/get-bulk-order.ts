import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { parseBulkOrderId } from "./bulk-order-id";
import { isOrderOpen, PREVIEW_TTL_MS, progressOf, toRowView, toSummary, type BulkOrderView } from "./bulk-view";

/**
 * A bulk order with its rows and progress, as the page polls it. Anyone who may read
 * orders may follow one; only its uploader sees the phone numbers in full and may
 * confirm or cancel it.
 */
export async function getBulkOrder(actor: Actor, id: string): Promise<BulkOrderView> {
  assertCan(actor, "orders.read");
  const bulkOrderId = parseBulkOrderId(id);
  const bulk = await db().bulkOrder.findUnique({
    where: { id: bulkOrderId },
    include: { rows: { orderBy: { rowNumber: "asc" } } },
  });
  if (!bulk) throw new AppError("not_found", "There is no such bulk order.");

  const orderIds = bulk.rows.flatMap((r) => (r.orderId ? [r.orderId] : []));
  const orders = orderIds.length
    ? await db().order.findMany({ where: { id: { in: orderIds } }, select: { id: true, status: true } })
    : [];
  const statusById = new Map(orders.map((o) => [o.id, o.status]));
  const isOwner = bulk.createdById === actor.staffId;
  const statusOf = (orderId: string | null) => (orderId ? (statusById.get(orderId) ?? null) : null);
  const ordersOpen = bulk.rows.filter((r) => r.state === "placed" && isOrderOpen(statusOf(r.orderId))).length;

  return {
    ...toSummary(bulk, progressOf(bulk.rows, bulk.validCount), ordersOpen),
    confirmedAt: bulk.confirmedAt?.toISOString() ?? null,
    finishedAt: bulk.finishedAt?.toISOString() ?? null,
    cancelledAt: bulk.cancelledAt?.toISOString() ?? null,
    previewExpiresAt: bulk.state === "draft" ? new Date(bulk.createdAt.getTime() + PREVIEW_TTL_MS).toISOString() : null,
    isOwner,
    rows: bulk.rows.map((row) => toRowView(row, statusOf(row.orderId), isOwner)),
  };
}
