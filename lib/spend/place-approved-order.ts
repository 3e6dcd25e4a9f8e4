import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { spentBy, spentByJob } from "@/lib/upstream/service";
import { notify } from "@/lib/notifications/notify";
import { recordAudit } from "@/lib/audit/record";
import { db, Prisma } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { isAppError } from "@/lib/errors";
import { spendApprovalKey } from "@/lib/idempotency/keys";
import { openLedgerEntry } from "@/lib/idempotency/ledger";
import { fromMinor, minorToDecimal, toMinor } from "@/lib/money";
import { sendLedgeredOrder } from "@/lib/orders/place-order";
import { getSettings } from "@/lib/settings/get-settings";
import type { OrderRequest } from "@/lib/upstream/client";
import { releaseSpend, settleSpend } from "./check-spend";
import { chargeSource, readStoredTotals, toStoredTotals } from "./spend-request-id";
import { assertSpendMove, KEY_TAKEN } from "./states";
import { noticeApprovedOrderPlaced, noticeApprovedOrderRefused, spendSubject } from "./spend-notices";

/**
 * Places an approved order exactly as stored, priced inline with `maximumTotal` = the
 * approved total, under a key per approval round (`spend-<id>-<round>`, a derived key no client
 * key can be: lib/idempotency/keys.ts) committed in the ledger before the send: placing the same approval twice — a double click, the job after
 * a crash — finds the one order. A price above the approved total comes back as the
 * contract's 409 and the request returns to the approvers with the old and the new total.
 * An unanswered send stays `approved`; the maintain job settles it under the same key.
 */
export async function placeApprovedOrder(id: string, approver: Actor | null): Promise<void> {
  const row = await db().spendRequest.findUnique({ where: { id } });
  if (!row || row.state !== "approved" || row.kind !== "order") return;
  const [approved] = readStoredTotals(row.approvedTotals);
  if (!approved) return;
  const key = spendApprovalKey(row.id, row.round);
  const request = {
    ...(row.orderRequest as OrderRequest),
    maximumTotal: fromMinor(approved.amountMinor, approved.currency),
  } as OrderRequest;
  const entry = await openLedgerEntry(key, "order.create", request, row.requestedById).catch((error: unknown) => {
    // The key already holds another request: none can since client keys are namespaced, but one
    // kept from before (a buyer's pre-claim) must end the request visibly, never leave it placing.
    if (isAppError(error) && error.code === "conflict") return null;
    throw error;
  });
  if (!entry) return markRefused(row, KEY_TAKEN, null, approver);
  if (entry.state === "succeeded" && entry.resultId) return markPlaced(row, entry.resultId, approver);
  if (entry.state === "rejected") return markRefused(row, entry.errorCode ?? "conflict", null, approver);

  const buyer = await buyerActor(row.requestedById);
  try {
    const order = await sendLedgeredOrder(key, request, buyer, {
      priority: "money",
      deadlineMs: approver ? 45_000 : 120_000,
      by: approver ? spentBy(approver) : spentByJob("spend-approvals"),
    });
    return markPlaced(row, order.id, approver);
  } catch (error) {
    const settled = await db().idempotencyKey.findUnique({ where: { key }, select: { state: true, errorCode: true } });
    if (settled?.state !== "rejected") {
      // Outcome unknown: the maintain job settles it under the same key. The approver hears it now.
      if (!isAppError(error) || approver) throw error;
      return;
    }
    const quoted = isAppError(error) && typeof error.extra?.quotedTotal === "number" ? error.extra.quotedTotal : null;
    return markRefused(row, settled.errorCode ?? "conflict", quoted, approver);
  }
}

async function markPlaced(row: SpendRequest, orderId: string, approver: Actor | null): Promise<void> {
  assertSpendMove("approved", "placed");
  const order = await db().order.findUnique({
    where: { id: orderId },
    select: { totalMinor: true, currency: true, status: true, clientReference: true },
  });
  await db().$transaction(async (tx) => {
    const { count } = await tx.spendRequest.updateMany({
      where: { id: row.id, state: "approved", round: row.round },
      data: { state: "placed", orderId },
    });
    if (count === 0) return;
    // Settled already where the order was mirrored (settleOrderSpend); a no-op then, kept for a send that ended before it.
    if (order) await settleSpend(tx, chargeSource(row), order.currency, order.totalMinor);
    await recordAudit(tx, {
      action: "spend.placed",
      actor: approver ?? { email: "system:spend" },
      targetId: row.id,
      details: {
        orderId,
        total: order ? minorToDecimal(order.totalMinor, order.currency) : null,
        currency: order?.currency ?? null,
      },
    });
    await noticeApprovedOrderPlaced(tx, row, { id: orderId, status: order?.status ?? null });
  });
}

/** The upstream refused it. A price rise goes back to the approvers; anything else ends it. */
async function markRefused(row: SpendRequest, code: string, quotedTotal: number | null, approver: Actor | null): Promise<void> {
  const [approved] = readStoredTotals(row.approvedTotals);
  const actor = approver ?? { email: "system:spend" };
  if (code === "price_above_maximum" && approved) {
    assertSpendMove("approved", "awaiting");
    const { spendApprovalHours } = await getSettings();
    const now = new Date();
    const newMinor = quotedTotal !== null ? toMinor(quotedTotal, approved.currency) : null;
    await db().$transaction(async (tx) => {
      const { count } = await tx.spendRequest.updateMany({
        where: { id: row.id, state: "approved", round: row.round },
        data: {
          state: "awaiting",
          round: row.round + 1,
          previousTotals: row.approvedTotals as Prisma.InputJsonValue,
          ...(newMinor !== null ? { totals: toStoredTotals([{ currency: approved.currency, amountMinor: newMinor }]) } : {}),
          approvedTotals: Prisma.DbNull,
          decidedById: null,
          decidedAt: null,
          decisionComment: null,
          expiresAt: new Date(now.getTime() + spendApprovalHours * 3_600_000),
          expiryNoticedAt: null,
        },
      });
      if (count === 0) return;
      if (newMinor !== null)
        await tx.spendCharge.updateMany({ where: { source: chargeSource(row), state: "held" }, data: { amountMinor: newMinor } });
      // Back with the approvers: a new round, told as a new request waiting.
      const again = await tx.spendRequest.findUniqueOrThrow({ where: { id: row.id } });
      await notify(tx, "approval.waiting", { subject: await spendSubject(tx, again), expiresAt: again.expiresAt });
      await recordAudit(tx, {
        action: "spend.price_changed",
        actor,
        targetId: row.id,
        details: {
          currency: approved.currency,
          approvedTotal: minorToDecimal(approved.amountMinor, approved.currency),
          newTotal: newMinor !== null ? minorToDecimal(newMinor, approved.currency) : null,
        },
      });
    });
    return;
  }
  assertSpendMove("approved", "failed");
  await db().$transaction(async (tx) => {
    const { count } = await tx.spendRequest.updateMany({
      where: { id: row.id, state: "approved", round: row.round },
      data: { state: "failed", failureCode: code },
    });
    if (count === 0) return;
    await releaseSpend(tx, chargeSource(row));
    await noticeApprovedOrderRefused(tx, row, code);
    await recordAudit(tx, {
      action: "spend.failed",
      actor,
      targetId: row.id,
      details: { reason: code },
    });
  });
}

/** The buyer the order is placed for (the mirror's "placed by"), whatever their roles are now: the approval is the authority. */
async function buyerActor(staffId: string): Promise<Actor> {
  const staff = await db().staff.findUniqueOrThrow({
    where: { id: staffId },
    select: { id: true, email: true, name: true, roles: true },
  });
  return { staffId: staff.id, email: staff.email, name: staff.name, roles: staff.roles };
}
