import type { ReactNode } from "react";
import { Field } from "@/components/ui/field";
import { formatMoney, parseMinor } from "@/lib/money";
import type { RemainingSpend } from "@/lib/spend/get-remaining-spend";

/** Why an order of this total would wait for an approver (the server decides again on submit), or null. */
export function approvalReasonFor(spend: RemainingSpend | null, totalMinor: bigint | null): string | null {
  if (!spend || totalMinor === null) return null;
  const minor = (v: string | null) => (v === null ? null : parseMinor(v, spend.currency));
  const money = (v: bigint) => formatMoney(v, spend.currency);
  const checks: [bigint | null, string][] = [
    [minor(spend.approvalAbove), "the approval threshold"],
    [minor(spend.perOrder), "your limit per order"],
    [minor(spend.leftToday), "what is left of your daily limit"],
    [minor(spend.leftThisMonth), "what is left of your monthly limit"],
  ];
  for (const [limit, what] of checks)
    if (limit !== null && totalMinor > limit) return `${money(totalMinor)} is above ${what} (${money(limit)}).`;
  return null;
}

/** The buyer's limits in this currency, shown before they order; nothing when none applies. */
export function SpendLimitsNote({ spend }: { spend: RemainingSpend | null }) {
  if (!spend) return null;
  const money = (v: string) => formatMoney(parseMinor(v, spend.currency), spend.currency);
  const limits = [
    spend.perOrder !== null ? `at most ${money(spend.perOrder)} per order` : null,
    spend.leftToday !== null ? `${money(spend.leftToday)} left today (UTC)` : null,
    spend.leftThisMonth !== null ? `${money(spend.leftThisMonth)} left this month` : null,
  ].filter(Boolean);
  const threshold = spend.approvalAbove !== null ? `orders above ${money(spend.approvalAbove)} need an approver` : null;
  if (limits.length === 0 && !threshold) return null;
  // Each rule said once: the threshold names the approver itself; limits say what happens past them.
  const sentences = [
    limits.length > 0 ? `${limits.join("; ")}, and past a limit an order waits for an approver` : null,
    threshold,
  ].filter(Boolean);
  return (
    <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200" data-testid="spend-limits">
      Your spending in {spend.currency}: {sentences.join("; ")}.
    </p>
  );
}

/**
 * Said before submitting: this order (or file) will wait for an approver, and why; with the
 * field for the buyer's reason, which the server requires for anything it holds.
 */
export function NeedsApproval({
  what,
  reason,
  onReason,
  error,
}: {
  what: ReactNode;
  reason: string;
  onReason: (reason: string) => void;
  error?: string[];
}) {
  return (
    <div className="space-y-2 rounded-md bg-violet-50 p-3 ring-1 ring-violet-200" data-testid="needs-approval">
      <p className="text-sm font-medium text-violet-900">{what}</p>
      <Field
        label="Why is this order needed?"
        name="approvalReason"
        maxLength={500}
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        error={error}
      />
    </div>
  );
}
