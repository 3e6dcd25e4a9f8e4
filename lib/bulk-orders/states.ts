import { AppError } from "@/lib/errors";
import { defineStateMachine } from "@/lib/state-machine";

/**
 * The two state machines of a bulk order: every move goes through `assertBulkMove` or
 * `assertRowMove`, and its update is conditional on the expected state (a concurrent move loses).
 *
 *   draft ──confirm──▶ confirmed ──job──▶ running ──all rows settled──▶ done
 *     │                    │                 │
 *     └────────────────────┴──────cancel─────┴──▶ cancelled
 *     └──confirm, above the threshold or a limit──▶ awaiting_approval ──approve──▶ confirmed
 *                                                        └──reject, expire, cancel──▶ cancelled
 *
 * Rows (`rowMachine`): pending ──claim──▶ placing ──▶ placed | failed; pending ──▶ skipped
 * (invalid at confirmation, or cancelled) | failed (the uploader may no longer order). A
 * `placing` row is re-claimed after a crash: its idempotency key finds the one order.
 */
export const BULK_STATES = ["draft", "awaiting_approval", "confirmed", "running", "done", "cancelled"] as const;
export type BulkState = (typeof BULK_STATES)[number];

export const ROW_STATES = ["pending", "placing", "placed", "failed", "skipped"] as const;
export type RowState = (typeof ROW_STATES)[number];

/** States in which the job still has work (or in-flight rows to settle). */
export const ACTIVE_BULK_STATES: readonly BulkState[] = ["confirmed", "running"];
export const OPEN_ROW_STATES: readonly RowState[] = ["pending", "placing"];

export const BULK_STATE_LABELS: Record<BulkState, string> = {
  draft: "Preview",
  awaiting_approval: "Awaiting approval",
  confirmed: "Queued",
  running: "Placing",
  done: "Done",
  cancelled: "Cancelled",
};

/**
 * What a person reads of a file's state. `done` means every row was sent; while orders it
 * placed are still on their way (reserved, processing, not yet heard of) the file reads
 * "Orders processing", and "Done" only once each of them has finished.
 */
export type BulkPhase = BulkState | "finishing";
export const BULK_PHASE_LABELS: Record<BulkPhase, string> = { ...BULK_STATE_LABELS, finishing: "Orders processing" };

export function bulkPhase(state: BulkState, ordersOpen: number): BulkPhase {
  return state === "done" && ordersOpen > 0 ? "finishing" : state;
}

export const ROW_STATE_LABELS: Record<RowState, string> = {
  pending: "Waiting",
  placing: "Placing",
  placed: "Placed",
  failed: "Failed",
  skipped: "Skipped",
};

export const bulkMachine = defineStateMachine({
  states: BULK_STATES,
  moves: {
    draft: ["confirmed", "awaiting_approval", "cancelled"],
    awaiting_approval: ["confirmed", "cancelled"],
    confirmed: ["running", "done", "cancelled"],
    running: ["done", "cancelled"],
    done: [],
    cancelled: [],
  },
  labels: BULK_STATE_LABELS,
  // The person sees this one: the bulk order moved on (another tab, the job) before their click.
  refuse: (from, to) =>
    new AppError(
      "conflict",
      `This bulk order is ${BULK_STATE_LABELS[from as BulkState]?.toLowerCase() ?? from}; it cannot be ${to === "cancelled" ? "cancelled" : `moved to ${to}`}.`,
    ),
});

export const rowMachine = defineStateMachine({
  states: ROW_STATES,
  moves: {
    // pending → failed: the uploader lost the right to order before the row was sent.
    pending: ["placing", "skipped", "failed"],
    placing: ["placing", "placed", "failed"],
    placed: [],
    failed: [],
    skipped: [],
  },
  labels: ROW_STATE_LABELS,
  refuse: (from, to) => new Error(`bulk order row cannot move from ${from} to ${to}`),
});

export const canMoveBulk = bulkMachine.canMove;
export const assertBulkMove = bulkMachine.assertMove;
export const isBulkState = bulkMachine.is;
/** The bulk states a given move starts from: the WHERE of a conditional update. */
export const bulkStatesLeadingTo = bulkMachine.leadingTo;

export const canMoveRow = rowMachine.canMove;
export const assertRowMove = rowMachine.assertMove;
export const isRowState = rowMachine.is;
/** The row states a given move starts from: the WHERE of a conditional update. */
export const rowStatesLeadingTo = rowMachine.leadingTo;
