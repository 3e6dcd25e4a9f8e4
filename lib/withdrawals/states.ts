/**
 * The life of a withdrawal request, from the app's maker-checker steps to the upstream's
 * payout. Only `approved` and `sending` requests can ever reach the upstream; rejected,
 * expired and in-app cancelled requests never do.
 *
 *   pending ──approve──▶ approved ──send──▶ sending ──matched/answered──▶ requested ──▶ paid
 *      │                    │                  └──refused──▶ failed          └──cancel──▶ cancelled
 *      ├──reject──▶ rejected
 *      ├──time──▶ expired
 *      └──cancel──▶ cancelled (also from approved, before the send starts)
 */
export const WITHDRAWAL_STATES = ["pending", "approved", "sending", "requested", "paid", "rejected", "expired", "cancelled", "failed"] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

export const WITHDRAWAL_STATE_LABELS: Record<WithdrawalState, string> = {
  pending: "Awaiting approval",
  approved: "Approved",
  sending: "Approved, sending",
  requested: "Requested upstream",
  paid: "Paid",
  rejected: "Rejected",
  expired: "Expired",
  cancelled: "Cancelled",
  failed: "Refused upstream",
};

/** Still moving: shown first, and synced with the upstream. */
export const OPEN_STATES: readonly WithdrawalState[] = ["pending", "approved", "sending", "requested"];

export function isWithdrawalState(value: string): value is WithdrawalState {
  return (WITHDRAWAL_STATES as readonly string[]).includes(value);
}
