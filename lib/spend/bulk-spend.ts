import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import type { Tx } from "@/lib/db/client";
import type { BulkOrder } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { minorToDecimal } from "@/lib/money";
import { readTotals, ROW_CANCELLED } from "@/lib/bulk-orders/bulk-view";
import { assertBulkMove } from "@/lib/bulk-orders/states";
import type { Settings } from "@/lib/settings/schema";
import { approvalWhy } from "./approval-reasons";
import { approvalNeeded, chargeSpend, lockBuyerSpend, releaseSpend, type SpendAmount } from "./check-spend";
import { hasAnyLimit } from "./spend-limits";
import { recordSpendRequest, requireApprovalReason } from "./record-spend-request";
import { assertSpendMove } from "./states";

export function bulkTotals(bulk: BulkOrder): SpendAmount[] {
  return readTotals(bulk.totals).map((t) => ({ currency: t.currency, amountMinor: BigInt(t.totalMinor) }));
}

/**
 * The spend gate in front of a bulk file, inside its confirmation's transaction: the file
 * is checked as one spend per currency. "send": charged, confirm as usual (its rows then count
 * until each is an order or refused: ./spend-limits.ts). "awaiting": stored
 * as one approval request for the whole file, the file moved to awaiting_approval.
 * `settings` are read before the transaction: on PGlite every query of another connection
 * waits for an open transaction to end.
 */
export async function gateBulkOrder(
  tx: Tx,
  actor: Actor,
  bulk: BulkOrder,
  reason: string | undefined,
  settings: Settings,
): Promise<"send" | "awaiting"> {
  if (settings.spendApprovalAmount === "" && !(await hasAnyLimit(tx, actor.staffId))) return "send";
  const amounts = bulkTotals(bulk);
  await lockBuyerSpend(tx, actor.staffId);
  const reasons = await approvalNeeded(tx, actor.staffId, amounts, settings);
  if (reasons.length === 0) {
    await chargeSpend(tx, actor.staffId, `bulk:${bulk.id}`, amounts);
    return "send";
  }
  const why = approvalWhy(reasons);
  const given = requireApprovalReason(reason, why, "This file");
  assertBulkMove("draft", "awaiting_approval");
  const { count } = await tx.bulkOrder.updateMany({
    where: { id: bulk.id, state: "draft" },
    data: { state: "awaiting_approval" },
  });
  if (count === 0) throw new AppError("conflict", "This bulk order changed meanwhile. Reload the page and try again.");
  await recordSpendRequest(tx, actor, {
    kind: "bulk",
    reason: given,
    why,
    amounts,
    settings,
    fields: { bulkOrderId: bulk.id },
    details: {
      kind: "bulk",
      bulkOrderId: bulk.id,
      fileName: bulk.fileName,
      totals: amounts.map((a) => ({ currency: a.currency, total: minorToDecimal(a.amountMinor, a.currency) })),
      why,
      reason: given,
    },
  });
  return "awaiting";
}

/** The uploader cancelled a file that was waiting: its request is withdrawn and stops counting. */
export async function withdrawBulkSpendRequest(tx: Tx, actor: Actor, bulkOrderId: string): Promise<void> {
  assertSpendMove("awaiting", "cancelled");
  const request = await tx.spendRequest.findUnique({ where: { bulkOrderId }, select: { id: true } });
  await releaseSpend(tx, `bulk:${bulkOrderId}`);
  if (!request) return;
  const { count } = await tx.spendRequest.updateMany({
    where: { id: request.id, state: "awaiting" },
    data: { state: "cancelled" },
  });
  if (count === 1)
    await recordAudit(tx, {
      action: "spend.cancel",
      actor,
      targetId: request.id,
      details: { bulkOrderId },
    });
}

/** A waiting file that was rejected or expired: cancelled, its rows never sent. */
export async function closeWaitingBulk(tx: Tx, bulkOrderId: string, message: string): Promise<void> {
  assertBulkMove("awaiting_approval", "cancelled");
  const now = new Date();
  const { count } = await tx.bulkOrder.updateMany({
    where: { id: bulkOrderId, state: "awaiting_approval" },
    data: { state: "cancelled", cancelledAt: now, finishedAt: now },
  });
  if (count === 0) return;
  await tx.bulkOrderRow.updateMany({
    where: { bulkOrderId, state: "pending" },
    data: { state: "skipped", errorCode: ROW_CANCELLED, errorMessage: message, settledAt: now },
  });
}
