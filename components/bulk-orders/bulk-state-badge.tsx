import { BULK_PHASE_LABELS, ROW_STATE_LABELS, type BulkPhase, type RowState } from "@/lib/bulk-orders/states";
import { StatusPill, type PillTone } from "@/components/ui/status-pill";

const BULK_TONES: Record<BulkPhase, PillTone> = {
  draft: "attention",
  awaiting_approval: "attention",
  confirmed: "info",
  running: "working",
  finishing: "working",
  done: "success",
  cancelled: "neutral",
};

const ROW_TONES: Record<RowState, PillTone> = {
  pending: "neutral",
  placing: "working",
  placed: "success",
  failed: "danger",
  skipped: "neutral",
};

/** The bulk order's state as a person reads it (bulkPhase), as text (never colour alone). */
export function BulkStateBadge({ state }: { state: BulkPhase }) {
  return (
    <StatusPill
      status={state}
      label={BULK_PHASE_LABELS[state] ?? state}
      tone={BULK_TONES[state]}
      testId="bulk-state"
      dataAttribute="data-state"
    />
  );
}

export function RowStateBadge({ state }: { state: RowState }) {
  return <StatusPill status={state} label={ROW_STATE_LABELS[state] ?? state} tone={ROW_TONES[state]} />;
}
