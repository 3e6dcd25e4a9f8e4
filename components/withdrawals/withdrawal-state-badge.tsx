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

/** The state as words (never colour alone). */
export function WithdrawalStateBadge({ state }: { state: WithdrawalState }) {
  return (
    <StatusPill
      status={state}
      label={WITHDRAWAL_STATE_LABELS[state]}
      tone={TONES[state]}
      testId="withdrawal-state"
      dataAttribute="data-state"
    />
  );
}
