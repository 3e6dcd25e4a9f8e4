import "server-only";
import { z } from "zod";
import { db, type Tx } from "@/lib/db/client";
import type { BulkOrder } from "@/lib/db/generated/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { parseInput } from "@/lib/validation";
import { getSettings } from "@/lib/settings/get-settings";
import type { Settings } from "@/lib/settings/schema";
import { gateBulkOrder } from "@/lib/spend/bulk-spend";
import { approvalReasonSchema } from "@/lib/spend/schemas";
import { parseBulkOrderId } from "./bulk-order-id";
import { assertBulkMove, assertRowMove, ACTIVE_BULK_STATES, type BulkState } from "./states";
import { PREVIEW_TTL_MS, readTotals, ROW_INVALID, type BulkOrderView } from "./bulk-view";
import { enqueueBulkOrderRun } from "./jobs";
import { findUsedReferences } from "./find-used-references";
import { getBulkOrder } from "./get-bulk-order";

const confirmSchema = z.object({ approvalReason: approvalReasonSchema.optional() }).strict();

/**
 * The one confirmation of a previewed bulk order (its uploader, a buyer). The file is one
 * spend: above the approval threshold or past a limit, it waits for an approver as a whole
 * (lib/spend/bulk-spend.ts). Otherwise every valid row receives its idempotency key here,
 * committed with the state change and the audit row, before any send; invalid rows are
 * marked skipped. Then the job is queued. Confirming again is a no-op that returns the
 * current state (and re-queues the job if it was lost).
 */
export async function confirmBulkOrder(actor: Actor, id: string, input: unknown = {}): Promise<BulkOrderView> {
  assertCan(actor, "orders.create");
  const bulkOrderId = parseBulkOrderId(id);
  const { approvalReason } = parseInput(confirmSchema, input ?? {});
  const settings = await getSettings();
  const state = await db().$transaction((tx) => confirmInTx(tx, actor, bulkOrderId, approvalReason, settings));
  if (ACTIVE_BULK_STATES.includes(state)) await enqueueConfirmed(bulkOrderId);
  return getBulkOrder(actor, bulkOrderId);
}

export async function enqueueConfirmed(bulkOrderId: string): Promise<void> {
  await enqueueBulkOrderRun(bulkOrderId).catch((error: unknown) => {
    // Confirmed and committed: the worker's sweep queues it within a minute.
    logger.warn("bulk order confirmed but not queued; the sweep will queue it", {
      bulkOrderId,
      error: error instanceof Error ? error.message : String(error),
    });
  });
}

async function confirmInTx(
  tx: Tx,
  actor: Actor,
  id: string,
  approvalReason: string | undefined,
  settings: Settings,
): Promise<BulkState> {
  const bulk = await tx.bulkOrder.findUnique({ where: { id } });
  if (!bulk) throw new AppError("not_found", "There is no such bulk order.");
  if (bulk.createdById !== actor.staffId)
    throw new AppError("forbidden", "Only the person who uploaded this file can confirm it.");
  if (bulk.state !== "draft" && bulk.state !== "cancelled") return bulk.state as BulkState;
  assertBulkMove(bulk.state, "confirmed");
  if (Date.now() - bulk.createdAt.getTime() > PREVIEW_TTL_MS) {
    throw new AppError(
      "preview_expired",
      "This preview is more than an hour old and prices may have moved. Upload the file again to see today's prices.",
      { status: 409 },
    );
  }
  if (bulk.validCount === 0)
    throw new AppError("conflict", "No row of this file can be ordered. Fix the rows shown and upload it again.");

  const valid = await tx.bulkOrderRow.findMany({
    where: { bulkOrderId: id, quotedTotalMinor: { not: null } },
    select: { rowNumber: true, clientReference: true },
  });
  const used = await findUsedReferences(
    valid.flatMap((r) => (r.clientReference ? [r.clientReference] : [])),
    id,
    tx,
  );
  if (used.size > 0) {
    const rows = valid.filter((r) => r.clientReference && used.has(r.clientReference)).map((r) => r.rowNumber);
    throw new AppError(
      "conflict",
      `Row${rows.length > 1 ? "s" : ""} ${rows.join(", ")} use client references that were ordered since this preview. Upload the file again.`,
    );
  }

  if ((await gateBulkOrder(tx, actor, bulk, approvalReason, settings)) === "awaiting") return "awaiting_approval";
  return commitConfirmation(tx, bulk, "draft", actor);
}

/**
 * Confirmed: keys for every valid row, invalid rows skipped, audited. From `draft` (the
 * uploader's click) or `awaiting_approval` (an approver's yes; `decidedBy` is then the actor).
 */
export async function commitConfirmation(
  tx: Tx,
  bulk: BulkOrder,
  from: "draft" | "awaiting_approval",
  actor: Actor,
): Promise<BulkState> {
  const id = bulk.id;
  const now = new Date();
  assertBulkMove(from, "confirmed");
  const { count } = await tx.bulkOrder.updateMany({ where: { id, state: from }, data: { state: "confirmed", confirmedAt: now } });
  if (count === 0) return (await tx.bulkOrder.findUniqueOrThrow({ where: { id } })).state as BulkState;
  // One key per valid row, unique by construction (bulk id + row number), stored before any send.
  // A derived key (lib/idempotency/keys.ts): no client key can take this form.
  await tx.$executeRaw`UPDATE "BulkOrderRow" SET "idempotencyKey" = 'bulk-' || "bulkOrderId" || '-' || "rowNumber", "updatedAt" = CURRENT_TIMESTAMP WHERE "bulkOrderId" = ${id} AND "quotedTotalMinor" IS NOT NULL AND "state" = 'pending'`;
  assertRowMove("pending", "skipped");
  await tx.bulkOrderRow.updateMany({
    where: { bulkOrderId: id, quotedTotalMinor: null, state: "pending" },
    data: {
      state: "skipped",
      errorCode: ROW_INVALID,
      errorMessage: "Not placed: this row had errors in the preview.",
      settledAt: now,
    },
  });
  await recordAudit(tx, {
    action: "bulk_order.confirm",
    actor,
    targetId: id,
    details: {
      fileName: bulk.fileName,
      rows: bulk.rowCount,
      validRows: bulk.validCount,
      totals: readTotals(bulk.totals),
      ...(from === "awaiting_approval" ? { approved: true } : {}),
    },
  });
  return "confirmed";
}
