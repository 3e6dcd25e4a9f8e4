import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseBulkOrderId } from "./bulk-order-id";
import { assertBulkMove, assertRowMove } from "./states";
import { withdrawBulkSpendRequest } from "@/lib/spend/bulk-spend";
import { ROW_CANCELLED, ROW_INVALID, type BulkOrderView } from "./bulk-view";
import { getBulkOrder } from "./get-bulk-order";

/**
 * Stops a bulk order (its uploader): rows not yet sent are skipped; a row already being
 * placed finishes, since it may have reached the Issuing Service. Discarding a preview is
 * the same move. Cancelling twice is a no-op.
 */
export async function cancelBulkOrder(actor: Actor, id: string): Promise<BulkOrderView> {
  assertCan(actor, "orders.create");
  const bulkOrderId = parseBulkOrderId(id);
  await db().$transaction(async (tx) => {
    const bulk = await tx.bulkOrder.findUnique({ where: { id: bulkOrderId } });
    if (!bulk) throw new AppError("not_found", "There is no such bulk order.");
    if (bulk.createdById !== actor.staffId)
      throw new AppError("forbidden", "Only the person who uploaded this file can cancel it.");
    if (bulk.state === "cancelled") return;
    assertBulkMove(bulk.state, "cancelled");

    const now = new Date();
    const { count } = await tx.bulkOrder.updateMany({
      where: { id: bulkOrderId, state: bulk.state },
      data: { state: "cancelled", cancelledAt: now },
    });
    if (count === 0) throw new AppError("conflict", "This bulk order changed meanwhile. Reload the page and try again.");
    if (bulk.state === "awaiting_approval") await withdrawBulkSpendRequest(tx, actor, bulkOrderId);
    assertRowMove("pending", "skipped");
    const skip = (invalid: boolean) =>
      tx.bulkOrderRow.updateMany({
        where: { bulkOrderId, state: "pending", quotedTotalMinor: invalid ? null : { not: null } },
        data: invalid
          ? {
              state: "skipped",
              errorCode: ROW_INVALID,
              errorMessage: "Not placed: this row had errors in the preview.",
              settledAt: now,
            }
          : {
              state: "skipped",
              errorCode: ROW_CANCELLED,
              errorMessage: "Not placed: the bulk order was cancelled before this row was sent.",
              settledAt: now,
            },
      });
    const stopped = await skip(false);
    await skip(true);
    const inFlight = await tx.bulkOrderRow.count({ where: { bulkOrderId, state: "placing" } });
    if (inFlight === 0) await tx.bulkOrder.update({ where: { id: bulkOrderId }, data: { finishedAt: now } });
    await recordAudit(tx, {
      action: "bulk_order.cancel",
      actor,
      targetId: bulkOrderId,
      details: { previousState: bulk.state, stoppedRows: stopped.count, inFlightRows: inFlight },
    });
  });
  return getBulkOrder(actor, bulkOrderId);
}
