import { BULK_STATE_LABELS, ROW_STATE_LABELS, type BulkState, type RowState } from "@/lib/bulk-orders/states";

const BULK_TONES: Record<BulkState, string> = {
  draft: "bg-amber-50 text-amber-900 ring-amber-200",
  awaiting_approval: "bg-violet-50 text-violet-800 ring-violet-200",
  confirmed: "bg-sky-50 text-sky-800 ring-sky-200",
  running: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  done: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  cancelled: "bg-slate-100 text-slate-700 ring-slate-200",
};

const ROW_TONES: Record<RowState, string> = {
  pending: "bg-slate-100 text-slate-700 ring-slate-200",
  placing: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  placed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  skipped: "bg-slate-100 text-slate-600 ring-slate-200",
};

const pill = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset";

/** The bulk order's state as text (never colour alone). */
export function BulkStateBadge({ state }: { state: BulkState }) {
  return (
    <span data-testid="bulk-state" data-state={state} className={`${pill} ${BULK_TONES[state] ?? BULK_TONES.cancelled}`}>
      {BULK_STATE_LABELS[state] ?? state}
    </span>
  );
}

export function RowStateBadge({ state }: { state: RowState }) {
  return <span className={`${pill} ${ROW_TONES[state] ?? ROW_TONES.pending}`}>{ROW_STATE_LABELS[state] ?? state}</span>;
}
