import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { minorToDecimal } from "@/lib/money";
import { spentBy, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { getWithdrawalRow } from "./get-withdrawal";
import { withdrawalIdSchema } from "./schemas";
import { claimWithdrawal, leaseFree, releaseWithdrawal } from "./lease";
import { upstreamFields } from "./send-withdrawal";
import { syncOpenWithdrawals } from "./sync-withdrawals";
import { assertWithdrawalMove, withdrawalStateWords, type WithdrawalState } from "./states";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";
import { cancelHeld } from "./payout-tasks";

/** Cancelled in the app alone: nothing was sent upstream yet. */
const NOT_SENT: readonly WithdrawalState[] = ["pending", "approved"];

/**
 * Finance or an approver calls a withdrawal off. Not yet sent (awaiting approval, or
 * approved with the send not started): cancelled in the app, nothing goes upstream. Held
 * upstream (`requested`): the upstream's cancellation, which it allows until the payout;
 * once paid it answers 409 `withdrawal_not_cancellable`, shown as such. While a send's
 * outcome is being resolved the request cannot be cancelled (it might be both sent and
 * cancelled-in-app); the page says to try again in a minute.
 */
export async function cancelWithdrawal(actor: Actor, id: unknown): Promise<WithdrawalView> {
  assertCan(actor, "withdrawals.cancel");
  const requestId = parseInput(withdrawalIdSchema, id);
  const now = new Date();

  for (const from of NOT_SENT) assertWithdrawalMove(from, "cancelled");
  const inApp = await db().$transaction(async (tx) => {
    const { count } = await tx.withdrawalRequest.updateMany({
      where: { id: requestId, state: { in: [...NOT_SENT] }, ...leaseFree(now) },
      data: { state: "cancelled", cancelledById: actor.staffId, cancelledAt: now },
    });
    if (count === 1) {
      const row = await tx.withdrawalRequest.findUniqueOrThrow({ where: { id: requestId } });
      await recordAudit(tx, {
        action: "withdrawal.cancel",
        actor,
        targetId: requestId,
        details: { amount: minorToDecimal(row.amountMinor, row.currency), currency: row.currency, sentUpstream: false },
      });
    }
    return count === 1;
  });
  if (inApp) return toWithdrawalView(await getWithdrawalRow(requestId), actor);
  await cancelHeld.call({ id: requestId, actor });
  return toWithdrawalView(await getWithdrawalRow(requestId), actor);
}

/**
 * The upstream's cancellation of a request it holds (`requested`), under the request's lease,
 * where the payout key is (lib/withdrawals/payout-tasks.ts).
 */
export async function cancelHeldWithdrawal(actor: Actor, requestId: string): Promise<void> {
  const row = await claimWithdrawal({ id: requestId, state: "requested", upstreamId: { not: null } });
  if (!row) throw await notCancellable(requestId);
  assertWithdrawalMove(row.state, "cancelled");
  try {
    const { data, correlationId } = await upstream().cancelWithdrawal(row.upstreamId!, { priority: "money", by: spentBy(actor) });
    await db().$transaction(async (tx) => {
      await tx.withdrawalRequest.update({
        where: { id: requestId },
        data: {
          ...upstreamFields(data),
          state: "cancelled",
          cancelledById: actor.staffId,
          cancelledAt: new Date(),
          leaseUntil: null,
        },
      });
      await recordAudit(tx, {
        action: "withdrawal.cancel",
        actor,
        targetId: requestId,
        correlationId,
        details: {
          amount: minorToDecimal(row.amountMinor, row.currency),
          currency: row.currency,
          sentUpstream: true,
          upstreamId: row.upstreamId!,
        },
      });
    });
  } catch (error) {
    await releaseWithdrawal(requestId);
    const failure = upstreamFailure(error);
    if (failure?.code === "withdrawal_not_cancellable") {
      await syncOpenWithdrawals({ priority: "interactive" });
      throw new AppError(
        "withdrawal_not_cancellable",
        "The Issuing Service has already paid this withdrawal out; it can no longer be cancelled.",
        { status: 409, correlationId: failure.correlationId },
      );
    }
    throw error;
  }
}

async function notCancellable(id: string): Promise<AppError> {
  const row = await getWithdrawalRow(id);
  if (
    row.state === "sending" ||
    row.state === "approved" ||
    (row.state === "requested" && row.leaseUntil && row.leaseUntil > new Date())
  ) {
    return new AppError(
      "withdrawal_busy",
      "This withdrawal is being sent to the Issuing Service right now. Try again in a minute.",
      { status: 409 },
    );
  }
  return new AppError(
    "not_cancellable",
    `This withdrawal can no longer be cancelled (it is ${withdrawalStateWords(row.state)}).`,
    { status: 409, extra: { state: row.state } },
  );
}
