import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { approvalReasons, approvalWhy, type ApprovalReason, type PeriodSpend } from "@/lib/spend/approval-reasons";
import { formatMoney, parseMinor } from "@/lib/money";
import type { RemainingSpend } from "@/lib/spend/get-remaining-spend";

/**
 * Why an order of this total would wait for an approver, every reason as one clause for
 * "needs approval because …" (the server decides again on submit, with the same rules), or null.
 */
export function approvalReasonFor(spend: RemainingSpend | null, totalMinor: bigint | null): string | null {
  const reasons = approvalReasonsFor(spend, totalMinor);
  return reasons.length > 0 ? approvalWhy(reasons) : null;
}

/** The same as data, for a file that is one spend per currency. */
export function approvalReasonsFor(spend: RemainingSpend | null, totalMinor: bigint | null): ApprovalReason[] {
  if (!spend || totalMinor === null) return [];
  const minor = (v: string | null) => (v === null ? null : parseMinor(v, spend.currency));
  const period = (p: RemainingSpend["today"]): PeriodSpend =>
    p ? { limitMinor: minor(p.limit)!, spentMinor: minor(p.spent)! } : null;
  return approvalReasons(
    {
      currency: spend.currency,
      thresholdMinor: minor(spend.approvalAbove),
      perOrderMinor: minor(spend.perOrder),
      day: period(spend.today),
      month: period(spend.thisMonth),
    },
    totalMinor,
  );
}

/**
 * The buyer's limits in this currency, shown before they order, one fact a line: what is left
 * today and this month, the most per order, the approval threshold, and what this order takes.
 * Nothing when no limit or threshold applies.
 */
export function SpendLimitsNote({ spend, thisOrder }: { spend: RemainingSpend | null; thisOrder: string | null }) {
  if (!spend) return null;
  const money = (v: string) => formatMoney(parseMinor(v, spend.currency), spend.currency);
  const facts: [string, string, string][] = [];
  if (spend.today && spend.leftToday !== null)
    facts.push(["today", "Left today (UTC)", `${money(spend.leftToday)} of ${money(spend.today.limit)}`]);
  if (spend.thisMonth && spend.leftThisMonth !== null)
    facts.push(["month", "Left this month (UTC)", `${money(spend.leftThisMonth)} of ${money(spend.thisMonth.limit)}`]);
  if (spend.perOrder !== null) facts.push(["per-order", "Per order", `at most ${money(spend.perOrder)}`]);
  if (spend.approvalAbove !== null) facts.push(["threshold", "Approval needed above", money(spend.approvalAbove)]);
  if (facts.length === 0) return null;
  if (thisOrder) facts.push(["this-order", "This order", thisOrder]);
  return (
    <section
      className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200"
      aria-label="Your spending"
      data-testid="spend-limits"
    >
      <h3 className="font-semibold text-slate-900">Your spending in {spend.currency}</h3>
      <dl className="mt-1 space-y-0.5">
        {facts.map(([key, label, value]) => (
          <div key={key} className="flex flex-wrap gap-x-1" data-testid={`spend-${key}`}>
            <dt>{label}:</dt> <dd className="font-medium tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-1 text-slate-600">An order past a limit or above the threshold waits for an approver.</p>
    </section>
  );
}

/**
 * Said before submitting: this order (or file) will wait for an approver, and why; with the
 * field for the buyer's reason, which the server requires for anything it holds, and, for an
 * order, the one button that asks (`ask`), saying at what total.
 */
export function NeedsApproval({
  what,
  reason,
  onReason,
  error,
  ask,
}: {
  what: ReactNode;
  reason: string;
  onReason: (reason: string) => void;
  error?: string[];
  ask?: { at: string; pending: boolean; onAsk: () => void };
}) {
  return (
    <section
      className="space-y-2 rounded-md bg-violet-50 p-3 ring-1 ring-violet-200"
      aria-label="Approval"
      data-testid="needs-approval"
    >
      <p className="text-sm font-medium text-violet-900">{what}</p>
      <Field
        label="Why is this order needed?"
        name="approvalReason"
        maxLength={500}
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        error={error}
      />
      {ask ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <Button type="button" disabled={ask.pending} onClick={ask.onAsk}>
            {ask.pending ? "Sending…" : "Ask for approval"}
          </Button>
          <p className="text-sm text-violet-900" data-testid="approval-asked-at">
            {ask.at}
          </p>
        </div>
      ) : null}
    </section>
  );
}
