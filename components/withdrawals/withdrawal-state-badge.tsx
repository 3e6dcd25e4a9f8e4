import { WITHDRAWAL_STATE_LABELS, type WithdrawalState } from "@/lib/withdrawals/states";
import { StatusPill, type PillTone } from "@/components/ui/status-pill";

const TONES: Record<WithdrawalState, PillTone> = {
  pending: "attention",
  approved: "working",
  sending: "working",
  requested: "info",
  paid: "success",
  rejected: "danger",
  expired: "neutral",
  cancelled: "neutral",
  failed: "danger",
};

/** The state as words (never colour alone); `label` when the view says more than the state (waiting for the worker). */
export function WithdrawalStateBadge({ state, label }: { state: WithdrawalState; label?: string }) {
  return (
    <StatusPill
      status={state}
      label={label ?? WITHDRAWAL_STATE_LABELS[state]}
      tone={TONES[state]}
      testId="withdrawal-state"
      dataAttribute="data-state"
    />
  );
}
