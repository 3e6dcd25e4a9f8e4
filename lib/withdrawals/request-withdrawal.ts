import "server-only";
import { randomBytes } from "node:crypto";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy } from "@/lib/upstream/service";
import { notify } from "@/lib/notifications/notify";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { parseInput } from "@/lib/validation";
import { getSettings } from "@/lib/settings/get-settings";
import { parseMinor } from "@/lib/money";
import { priceWithdrawal } from "./quote-withdrawal";
import { withdrawalRequestSchema } from "./schemas";
import { withdrawalSubject } from "./withdrawal-notices";
import { toWithdrawalView, withStaffNames, type WithdrawalView } from "./withdrawal-view";

export function newWithdrawalRequestId(): string {
  return `wr_${randomBytes(12).toString("base64url")}`;
}

/**
 * Finance asks for a payout: the terms are quoted again (so an over-balance amount is
 * refused now, with the contract's 409), and the request is stored for another person to
 * approve. Nothing is sent upstream until then.
 */
export async function requestWithdrawal(actor: Actor, input: unknown): Promise<WithdrawalView> {
  assertCan(actor, "withdrawals.request");
  const { amount, currency, reason } = parseInput(withdrawalRequestSchema, input);
  const amountMinor = parseMinor(amount, currency);
  const terms = await priceWithdrawal(amountMinor, currency, spentBy(actor));
  const { withdrawalApprovalHours } = await getSettings();
  const now = new Date();
  const row = await db().$transaction(async (tx) => {
    const created = await tx.withdrawalRequest.create({
      data: {
        id: newWithdrawalRequestId(),
        amountMinor,
        currency,
        feeMinor: terms.feeMinor,
        netMinor: terms.netMinor,
        quotedPayoutAt: terms.payoutAt,
        reason,
        requestedById: actor.staffId,
        requestedAt: now,
        expiresAt: new Date(now.getTime() + withdrawalApprovalHours * 3_600_000),
      },
      include: withStaffNames,
    });
    await recordAudit(tx, {
      action: "withdrawal.request",
      actor,
      targetId: created.id,
      details: {
        amount,
        currency,
        fee: terms.quote.fee,
        netAmount: terms.quote.netAmount,
        reason,
        expiresAt: created.expiresAt.toISOString(),
      },
    });
    // Approvers hear of it in the same transaction as the request.
    await notify(tx, "approval.waiting", {
      subject: await withdrawalSubject(tx, created, actor.name),
      expiresAt: created.expiresAt,
    });
    return created;
  });
  return toWithdrawalView(row, actor);
}
