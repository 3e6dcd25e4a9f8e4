import { AppError } from "@/lib/errors";
import { defineStateMachine } from "@/lib/state-machine";

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
 *
 * Every move goes through `assertWithdrawalMove`; the database updates are conditional on
 * the expected current state, so a concurrent move loses cleanly instead of overwriting.
 */
export const WITHDRAWAL_STATES = [
  "pending",
  "approved",
  "sending",
  "requested",
  "paid",
  "rejected",
  "expired",
  "cancelled",
  "failed",
] as const;
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

export const withdrawalMachine = defineStateMachine({
  states: WITHDRAWAL_STATES,
  moves: {
    pending: ["approved", "rejected", "expired", "cancelled"],
    approved: ["sending", "cancelled"],
    // sending → approved: the send never left this process (the request budget was full).
    // The upstream's answer, or the match found after a lost one, may already be paid or cancelled.
    sending: ["approved", "requested", "paid", "cancelled", "failed"],
    requested: ["paid", "cancelled"],
    paid: [],
    rejected: [],
    expired: [],
    cancelled: [],
    failed: [],
  },
  labels: WITHDRAWAL_STATE_LABELS,
  // The moves are written in the code, so one the table lacks is a programming error.
  refuse: (from, to) => new AppError("conflict", `A withdrawal cannot move from ${from} to ${to}.`, { status: 409 }),
});

/** Still moving: shown first, and synced with the upstream. */
export const OPEN_STATES: readonly WithdrawalState[] = ["pending", "approved", "sending", "requested"];

export const isWithdrawalState = withdrawalMachine.is;
export const canMoveWithdrawal = withdrawalMachine.canMove;
export const assertWithdrawalMove = withdrawalMachine.assertMove;

/** "it is approved, sending": how a refusal names the state a request is in. */
export const withdrawalStateWords = withdrawalMachine.words;
