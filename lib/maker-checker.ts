import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/**
 * Why a checker's decision did not take, once its one conditional update (the request still
 * waiting, not expired, not the checker's own) changed nothing: shared by withdrawals
 * (lib/withdrawals/decide-withdrawal.ts) and spend approvals (lib/spend/decide-spend-request.ts).
 * - the checker asked for it themselves: audited, 403 `own_request` (the database refuses it too);
 * - it expired while waiting: expired now (by `expire`), 409 `approval_expired`;
 * - anything else (decided meanwhile, cancelled): 409 `not_pending`, naming its state.
 * In the decision's transaction, so the audit row and the expiry commit with the refusal.
 */
export async function refusedDecision(
  tx: Tx,
  actor: Actor,
  row: { id: string; requestedById: string; state: string; expiresAt: Date },
  how: {
    /** What it is to the person: "withdrawal", "order". */
    noun: string;
    /** What records a self-approval attempt (its target kind is the audit table's). */
    selfApproval: { action: "withdrawal.self_approval_refused" | "spend.self_approval_refused" };
    /** The request's state, waiting for a checker. */
    waiting: string;
    expire: () => Promise<unknown>;
    /** Who may ask again once it expired: "Finance can request it again." */
    afterExpiry: string;
    stateWords: (state: string) => string;
  },
  now: Date,
): Promise<AppError> {
  if (row.requestedById === actor.staffId) {
    await recordAudit(tx, { action: how.selfApproval.action, actor, targetId: row.id });
    return new AppError("own_request", `You asked for this ${how.noun}, so someone else must approve or reject it.`, {
      status: 403,
    });
  }
  if (row.state === how.waiting && row.expiresAt <= now) {
    await how.expire();
    return new AppError("approval_expired", `This request was not decided in time and has expired. ${how.afterExpiry}`, {
      status: 409,
    });
  }
  return new AppError("not_pending", `This request is no longer awaiting approval (it is ${how.stateWords(row.state)}).`, {
    status: 409,
    extra: { state: row.state },
  });
}
