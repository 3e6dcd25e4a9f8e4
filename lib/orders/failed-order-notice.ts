import "server-only";
import type { Tx } from "@/lib/db/client";
import { noticeBulkFailures } from "@/lib/bulk-orders/bulk-failure-notice";
import { notify } from "@/lib/notifications/notify";
import type { OrderStatus } from "./states";

/**
 * What the mirror's taking of a final status tells people, in the mirror's transaction: an
 * order of a bulk file may finish the file (its failures go to the buyer as one message,
 * lib/bulk-orders/bulk-failure-notice.ts); any other order that failed is told to the person
 * who placed it (an order the app did not place, imported or made elsewhere, has nobody to tell).
 */
export async function noticeOrderSettled(
  tx: Tx,
  order: {
    id: string;
    clientReference: string;
    totalMinor: bigint;
    currency: string;
    placedById: string | null;
    idempotencyKey: string | null;
  },
  status: OrderStatus,
): Promise<void> {
  if (status === "reserved" || status === "processing") return;
  const bulkRow = order.idempotencyKey
    ? await tx.bulkOrderRow.findUnique({ where: { idempotencyKey: order.idempotencyKey }, select: { bulkOrderId: true } })
    : null;
  if (bulkRow) return noticeBulkFailures(tx, bulkRow.bulkOrderId);
  if (status !== "failed" || !order.placedById) return;
  await notify(tx, "orders.failed", {
    about: "order",
    orderId: order.id,
    clientReference: order.clientReference,
    total: { amountMinor: order.totalMinor, currency: order.currency },
    buyerId: order.placedById,
  });
}
