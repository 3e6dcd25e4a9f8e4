import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { notify } from "@/lib/notifications/notify";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { backgroundWork } from "@/lib/jobs/background-work";
import { refusedDecision } from "@/lib/maker-checker";
import { parseInput } from "@/lib/validation";
import { minorToDecimal } from "@/lib/money";
import { readSettings } from "@/lib/settings/get-settings";
import { expireOne } from "./expire-withdrawals";
import { getWithdrawalRow } from "./get-withdrawal";
import { approveSchema, rejectSchema, withdrawalIdSchema } from "./schemas";
import { destinationNamed, UNNAMED_DESTINATION } from "./payout-destination";
import { sendApproved } from "./payout-tasks";
import { assertWithdrawalMove, withdrawalStateWords } from "./states";
import { markWaitingForWorker } from "./waiting-for-worker";
import { withdrawalSubject } from "./withdrawal-notices";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

/**
 * The checker's step. Another person than the requester (even one holding both roles; the
 * database refuses it too), before the request expires, approves and the app sends it
 * upstream at once (through the worker when only it holds the payout key: the answer then
 * shows the request as sending if the worker takes longer than a few seconds, and as waiting to be
 * sent while no worker runs); or rejects it
 * with a comment, and it is never sent. Approval needs the destination named (./payout-destination.ts):
 * a waiting request whose destination is not named is refused with 409 and stays waiting.
 */
export async function approveWithdrawal(actor: Actor, id: unknown, input: unknown): Promise<WithdrawalView> {
  assertCan(actor, "withdrawals.approve");
  const requestId = parseInput(withdrawalIdSchema, id);
  const { comment } = parseInput(approveSchema, input);
  const named = destinationNamed((await readSettings()).payoutDetailsName);
  await decide(actor, requestId, { state: "approved", comment: comment || null, action: "withdrawal.approve", named });
  await sendApproved.call({ id: requestId, actor });
  return markWaitingForWorker(toWithdrawalView(await getWithdrawalRow(requestId), actor), await backgroundWork());
}

export async function rejectWithdrawal(actor: Actor, id: unknown, input: unknown): Promise<WithdrawalView> {
  assertCan(actor, "withdrawals.approve");
  const requestId = parseInput(withdrawalIdSchema, id);
  const { comment } = parseInput(rejectSchema, input);
  await decide(actor, requestId, { state: "rejected", comment, action: "withdrawal.reject" });
  return toWithdrawalView(await getWithdrawalRow(requestId), actor);
}

async function decide(
  actor: Actor,
  id: string,
  decision: {
    state: "approved" | "rejected";
    comment: string | null;
    action: "withdrawal.approve" | "withdrawal.reject";
    /** Whether the destination is named; an approval of a request still waiting needs it. */
    named?: boolean;
  },
): Promise<void> {
  const now = new Date();
  assertWithdrawalMove("pending", decision.state);
  const refusal = await db().$transaction(async (tx) => {
    // Only a request this person could otherwise approve: own, expired or decided ones get their own refusal.
    if (decision.named === false) {
      const waiting = await tx.withdrawalRequest.findFirst({
        where: { id, state: "pending", expiresAt: { gt: now }, NOT: { requestedById: actor.staffId } },
        select: { id: true },
      });
      if (waiting) return new AppError("payout_details_unnamed", UNNAMED_DESTINATION, { status: 409 });
    }
    // One conditional update decides who wins when two approvers click at once.
    const { count } = await tx.withdrawalRequest.updateMany({
      where: { id, state: "pending", expiresAt: { gt: now }, NOT: { requestedById: actor.staffId } },
      data: { state: decision.state, decidedById: actor.staffId, decidedAt: now, decisionComment: decision.comment },
    });
    const row = await tx.withdrawalRequest.findUnique({ where: { id } });
    if (!row) return new AppError("not_found", "This withdrawal request does not exist.");
    if (count === 1) {
      await recordAudit(tx, {
        action: decision.action,
        actor,
        targetId: id,
        details: {
          amount: minorToDecimal(row.amountMinor, row.currency),
          currency: row.currency,
          comment: decision.comment,
          requestedById: row.requestedById,
        },
      });
      // The requester hears of the decision with it (never the decider).
      await notify(tx, "approval.decided", {
        subject: await withdrawalSubject(tx, row),
        approved: decision.state === "approved",
        deciderId: actor.staffId,
        deciderName: actor.name,
        ...(decision.comment ? { comment: decision.comment } : {}),
        ...(decision.state === "approved" ? { then: { what: "withdrawal_sending" as const } } : {}),
      });
      return null;
    }
    return refusedDecision(
      tx,
      actor,
      row,
      {
        noun: "withdrawal",
        selfApproval: { action: "withdrawal.self_approval_refused" },
        waiting: "pending",
        expire: () => expireOne(tx, id),
        afterExpiry: "Finance can request it again.",
        stateWords: withdrawalStateWords,
      },
      now,
    );
  });
  if (refusal) throw refusal;
}
