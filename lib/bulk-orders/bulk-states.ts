import { AppError } from "@/lib/errors";

/**
 * The two state machines of a bulk order, in one place. Every transition goes through
 * `assertBulkMove` / `assertRowMove`; the database updates are conditional on the
 * expected current state, so a concurrent move loses cleanly instead of overwriting.
 *
 *   draft ──confirm──▶ confirmed ──job──▶ running ──all rows settled──▶ done
 *     │                    │                 │
 *     └────────────────────┴──────cancel─────┴──▶ cancelled
 *
 * Rows: pending ──claim──▶ placing ──▶ placed | failed;  pending ──▶ skipped (invalid
 * at confirmation, or cancelled) | failed (the uploader may no longer order). A `placing` row is re-claimed after a crash: it holds
 * an idempotency key, so resending can only find the one order.
 */
export const BULK_STATES = ["draft", "confirmed", "running", "done", "cancelled"] as const;
export type BulkState = (typeof BULK_STATES)[number];

export const ROW_STATES = ["pending", "placing", "placed", "failed", "skipped"] as const;
export type RowState = (typeof ROW_STATES)[number];

const BULK_MOVES: Record<BulkState, readonly BulkState[]> = {
  draft: ["confirmed", "cancelled"],
  confirmed: ["running", "done", "cancelled"],
  running: ["done", "cancelled"],
  done: [],
  cancelled: [],
};

const ROW_MOVES: Record<RowState, readonly RowState[]> = {
  // pending → failed: the uploader lost the right to order before the row was sent.
  pending: ["placing", "skipped", "failed"],
  placing: ["placing", "placed", "failed"],
  placed: [],
  failed: [],
  skipped: [],
};

/** States in which the job still has work (or in-flight rows to settle). */
export const ACTIVE_BULK_STATES: readonly BulkState[] = ["confirmed", "running"];
export const OPEN_ROW_STATES: readonly RowState[] = ["pending", "placing"];

export const BULK_STATE_LABELS: Record<BulkState, string> = {
  draft: "Preview",
  confirmed: "Queued",
  running: "Placing",
  done: "Done",
  cancelled: "Cancelled",
};

export const ROW_STATE_LABELS: Record<RowState, string> = {
  pending: "Waiting",
  placing: "Placing",
  placed: "Placed",
  failed: "Failed",
  skipped: "Skipped",
};

export function canMoveBulk(from: BulkState, to: BulkState): boolean {
  return BULK_MOVES[from].includes(to);
}

export function assertBulkMove(from: string, to: BulkState): void {
  if (!isBulkState(from) || !canMoveBulk(from, to)) {
    throw new AppError("conflict", `This bulk order is ${BULK_STATE_LABELS[from as BulkState]?.toLowerCase() ?? from}; it cannot be ${to === "cancelled" ? "cancelled" : `moved to ${to}`}.`);
  }
}

export function canMoveRow(from: RowState, to: RowState): boolean {
  return ROW_MOVES[from].includes(to);
}

export function assertRowMove(from: string, to: RowState): void {
  if (!isRowState(from) || !canMoveRow(from, to)) throw new Error(`bulk order row cannot move from ${from} to ${to}`);
}

export function isBulkState(value: string): value is BulkState {
  return (BULK_STATES as readonly string[]).includes(value);
}

export function isRowState(value: string): value is RowState {
  return (ROW_STATES as readonly string[]).includes(value);
}

/** The row states a given move starts from: the WHERE of a conditional update. */
export function rowStatesLeadingTo(to: RowState): RowState[] {
  return ROW_STATES.filter((from) => ROW_MOVES[from].includes(to));
}

export function bulkStatesLeadingTo(to: BulkState): BulkState[] {
  return BULK_STATES.filter((from) => BULK_MOVES[from].includes(to));
}
