import type { BulkOrderView } from "@/lib/bulk-orders/bulk-view";
import { OUTCOME_LABELS, outcomeCounts, type RowOutcome } from "@/lib/bulk-orders/bulk-outcome";

const TONES: Partial<Record<RowOutcome, string>> = {
  fulfilled: "text-emerald-700",
  order_failed: "text-red-700",
  not_placed: "text-red-700",
  unknown: "text-amber-800",
  refunded: "text-amber-800",
};

/**
 * What the placed rows became, "43 fulfilled · 2 failed (funds released)", with the
 * results as a CSV (row, reference, order id, status, reason) once anything was sent.
 */
export function BulkOutcome({ view }: { view: BulkOrderView }) {
  const counts = outcomeCounts(view);
  if (counts.length === 0) return null;
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm" data-testid="bulk-outcome">
        {counts.map((c, i) => (
          <span key={c.outcome} className={TONES[c.outcome] ?? "text-slate-700"} data-outcome={c.outcome}>
            {i > 0 ? <span className="text-slate-400"> · </span> : null}
            <span className="font-semibold tabular-nums">{c.count}</span> {OUTCOME_LABELS[c.outcome]}
          </span>
        ))}
      </p>
      <a
        href={`/api/bulk-orders/${encodeURIComponent(view.id)}/results`}
        download
        className="rounded-md bg-white px-3 py-1.5 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        data-testid="bulk-results-csv"
      >
        Download results (CSV)
      </a>
    </div>
  );
}
