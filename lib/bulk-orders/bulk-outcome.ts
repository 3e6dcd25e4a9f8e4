import { ROW_CANCELLED, type BulkOrderView, type BulkRowView } from "./bulk-view";

/**
 * What became of each row, as a person asks it: not "was it sent" but "did it deliver".
 * A row that was placed can still fail upstream (the reserved funds are then released),
 * so the order's status decides. Pure: pages, the results CSV and tests share it.
 */
export type RowOutcome =
  "fulfilled" | "order_failed" | "refunded" | "in_progress" | "not_placed" | "unknown" | "waiting" | "cancelled" | "invalid";

export const OUTCOME_LABELS: Record<RowOutcome, string> = {
  fulfilled: "fulfilled",
  order_failed: "failed (funds released)",
  refunded: "refunded",
  in_progress: "processing",
  not_placed: "not placed (nothing bought)",
  unknown: "outcome not yet known",
  waiting: "waiting",
  cancelled: "cancelled",
  invalid: "skipped (errors in the row)",
};

/** The order in which the summary names outcomes: what went wrong after what went right. */
const SUMMARY_ORDER: RowOutcome[] = [
  "fulfilled",
  "order_failed",
  "refunded",
  "not_placed",
  "unknown",
  "in_progress",
  "waiting",
  "cancelled",
];

export function rowOutcome(row: BulkRowView): RowOutcome {
  if (row.errors && row.state !== "placed") return "invalid";
  if (row.state === "placed") {
    if (row.orderStatus === "fulfilled") return "fulfilled";
    if (row.orderStatus === "failed") return "order_failed";
    if (row.orderStatus === "refunded") return "refunded";
    return "in_progress";
  }
  if (row.state === "failed") return row.errorCode === "outcome_unknown" ? "unknown" : "not_placed";
  if (row.state === "skipped") return row.errorCode === ROW_CANCELLED ? "cancelled" : "invalid";
  return "waiting";
}

// The file's columns in order, the row's own problems first: a stored row's errors (JSONB) come back in any order.
const FIELD_ORDER = ["_row", "productId", "variantId", "value", "quantity", "clientReference", "phoneNumber"];
const fieldRank = (field: string) => (FIELD_ORDER.includes(field) ? FIELD_ORDER.indexOf(field) : FIELD_ORDER.length);

/** A row's errors as [field, messages], product first, in the file's column order. */
export function orderedErrors(errors: Record<string, string[]>): [string, string[]][] {
  return Object.entries(errors).sort(([a], [b]) => fieldRank(a) - fieldRank(b));
}

/** Why a row needs a person, in words; null when it does not. */
export function rowReason(row: BulkRowView): string | null {
  switch (rowOutcome(row)) {
    case "order_failed":
      return "The Issuing Service could not fulfil this order; the reserved funds were released to the wallet.";
    case "refunded":
      return "The order was refunded after it was fulfilled.";
    case "not_placed":
    case "unknown":
      return row.errorMessage ?? "The order could not be placed; nothing was bought.";
    case "invalid":
      return row.errors
        ? orderedErrors(row.errors)
            .flatMap(([, messages]) => messages)
            .join(" ")
        : "The row has errors.";
    default:
      return null;
  }
}

export function needsAttention(row: BulkRowView): boolean {
  return row.errors !== null || rowReason(row) !== null;
}

export type OutcomeCount = { outcome: RowOutcome; count: number };

/** Counts of the rows that were to be placed, e.g. 43 fulfilled, 2 failed (funds released). */
export function outcomeCounts(view: Pick<BulkOrderView, "rows">): OutcomeCount[] {
  const counts = new Map<RowOutcome, number>();
  for (const row of view.rows) {
    const outcome = rowOutcome(row);
    if (outcome !== "invalid") counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  }
  return SUMMARY_ORDER.filter((o) => counts.has(o)).map((outcome) => ({ outcome, count: counts.get(outcome)! }));
}

/** "43 fulfilled · 2 failed (funds released)". */
export function outcomeSummary(view: Pick<BulkOrderView, "rows">): string {
  return outcomeCounts(view)
    .map((c) => `${c.count} ${OUTCOME_LABELS[c.outcome]}`)
    .join(" · ");
}
