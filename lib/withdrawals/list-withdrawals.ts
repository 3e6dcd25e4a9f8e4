import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { parseInput } from "@/lib/validation";
import { expireWithdrawals } from "./expire-withdrawals";
import { withdrawalListQuerySchema } from "./schemas";
import { OPEN_STATES } from "./states";
import { syncOpenWithdrawals } from "./sync-withdrawals";
import { toWithdrawalView, withStaffNames, type WithdrawalView } from "./withdrawal-view";

export const WITHDRAWALS_PAGE_SIZE = 25;

export type WithdrawalList = {
  items: WithdrawalView[];
  page: number;
  pageCount: number;
  total: number;
  awaitingApproval: number;
};

/**
 * Withdrawal requests, newest first, optionally one state (or "open": still moving).
 * Before reading, expired requests are marked and requests held upstream are synced
 * (throttled; free when none is open), so the list says what is true now.
 */
export async function listWithdrawals(actor: Actor, query: unknown): Promise<WithdrawalList> {
  assertCan(actor, "withdrawals.read");
  const { state, page } = parseInput(withdrawalListQuerySchema, query);
  await expireWithdrawals();
  await syncOpenWithdrawals({ priority: "interactive", throttle: true });
  const where = state === undefined ? {} : state === "open" ? { state: { in: [...OPEN_STATES] } } : { state };
  const [total, rows, awaitingApproval] = await Promise.all([
    db().withdrawalRequest.count({ where }),
    db().withdrawalRequest.findMany({
      where,
      include: withStaffNames,
      orderBy: [{ requestedAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * WITHDRAWALS_PAGE_SIZE,
      take: WITHDRAWALS_PAGE_SIZE,
    }),
    // Only requests this person may decide: never their own (maker-checker).
    db().withdrawalRequest.count({ where: { state: "pending", requestedById: { not: actor.staffId } } }),
  ]);
  const now = new Date();
  return {
    items: rows.map((r) => toWithdrawalView(r, actor, now)),
    page,
    pageCount: Math.max(1, Math.ceil(total / WITHDRAWALS_PAGE_SIZE)),
    total,
    awaitingApproval,
  };
}
