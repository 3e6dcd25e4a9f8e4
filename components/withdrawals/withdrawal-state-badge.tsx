import { WITHDRAWAL_STATE_LABELS, type WithdrawalState } from "@/lib/withdrawals/states";

const TONES: Record<WithdrawalState, string> = {
  pending: "bg-amber-50 text-amber-900 ring-amber-200",
  approved: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  sending: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  requested: "bg-sky-50 text-sky-800 ring-sky-200",
  paid: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  rejected: "bg-red-50 text-red-800 ring-red-200",
  expired: "bg-slate-100 text-slate-700 ring-slate-300",
  cancelled: "bg-slate-100 text-slate-700 ring-slate-300",
  failed: "bg-red-50 text-red-800 ring-red-200",
};

/** The state as words (never colour alone). */
export function WithdrawalStateBadge({ state }: { state: WithdrawalState }) {
  return (
    <span data-testid="withdrawal-state" data-state={state} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[state]}`}>
      {WITHDRAWAL_STATE_LABELS[state]}
    </span>
  );
}
