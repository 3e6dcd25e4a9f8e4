import { AppError } from "@/lib/errors";
import { defineStateMachine } from "@/lib/state-machine";

/**
 * The life of a spend approval request (an order or a bulk file held for a second person).
 * Only an `approved` request is ever sent; rejected and expired ones never are.
 *
 *   awaiting ──approve──▶ approved ──placed──▶ placed
 *      │                     ├──price rose (409)──▶ awaiting (round + 1, old and new totals kept)
 *      ├──reject──▶ rejected  └──refused──▶ failed
 *      ├──time──▶ expired
 *      └──the buyer cancels their bulk file, or is deactivated──▶ cancelled
 *
 * A bulk file's approval hands it to the bulk job (its rows are placed as for any file).
 * Every move goes through `assertSpendMove`; updates are conditional on the current state.
 */
export const SPEND_STATES = ["awaiting", "approved", "placed", "rejected", "expired", "cancelled", "failed"] as const;
export type SpendState = (typeof SPEND_STATES)[number];

export const SPEND_STATE_LABELS: Record<SpendState, string> = {
  awaiting: "Awaiting approval",
  approved: "Approved, placing",
  placed: "Placed",
  rejected: "Rejected",
  expired: "Expired",
  cancelled: "Withdrawn by the buyer",
  failed: "Refused upstream",
};

export const spendMachine = defineStateMachine({
  states: SPEND_STATES,
  moves: {
    awaiting: ["approved", "rejected", "expired", "cancelled"],
    approved: ["placed", "awaiting", "failed"],
    placed: [],
    rejected: [],
    expired: [],
    cancelled: [],
    failed: [],
  },
  labels: SPEND_STATE_LABELS,
  refuse: (from, to) => new AppError("conflict", `A spend request cannot move from ${from} to ${to}.`, { status: 409 }),
});

export const isSpendState = spendMachine.is;
export const assertSpendMove = spendMachine.assertMove;

/** Why a request ended without an order, besides the upstream's own refusal codes. */
export const BUYER_DEACTIVATED = "buyer_deactivated";
export const KEY_TAKEN = "idempotency_key_conflict";

/** The label of one request: a request cancelled by its buyer's deactivation was not withdrawn by them. */
export function spendStateLabel(state: SpendState, failureCode: string | null): string {
  return state === "cancelled" && failureCode === BUYER_DEACTIVATED ? "Cancelled" : SPEND_STATE_LABELS[state];
}

/** Why a request ended without an order, in words, from its `failureCode` (null: the label says it all). */
export function spendOutcomeNote(state: string, failureCode: string | null): string | null {
  if (!failureCode) return null;
  if (state === "cancelled" && failureCode === BUYER_DEACTIVATED)
    return "Cancelled: the person who asked for it was deactivated. Nothing was bought.";
  if (state === "failed")
    return failureCode === KEY_TAKEN
      ? "Not placed: its order key was already used for another order. Nothing was bought; the buyer can order again."
      : `Not placed: the Issuing Service refused it (${failureCode}). Nothing was bought.`;
  return null;
}
