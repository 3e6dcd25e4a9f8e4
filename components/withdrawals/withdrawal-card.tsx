import type { ReactNode } from "react";
import type { WithdrawalView } from "@/lib/withdrawals/withdrawal-view";
import type { BalancesAfter } from "@/lib/wallet/balance-after";
import { BalanceAfterFacts } from "@/components/wallet/balance-after";
import { utcTime } from "@/components/ui/utc-time";
import { money } from "./format";
import { WithdrawalActions } from "./withdrawal-actions";
import { WithdrawalStateBadge } from "./withdrawal-state-badge";

function Step({ done, children }: { done: boolean; children: ReactNode }) {
  return (
    <li className="flex gap-2">
      <span aria-hidden className={`mt-1.5 size-2 shrink-0 rounded-full ${done ? "bg-brand-600" : "bg-slate-300"}`} />
      <span className={done ? "text-slate-800" : "text-slate-500"}>{children}</span>
    </li>
  );
}

/** Beside a waiting request: where it is paid, what arrives there, and the wallet after it. */
function BeforeDeciding({ w, payoutName, balance }: { w: WithdrawalView; payoutName: string; balance: BalancesAfter | null }) {
  return (
    <div
      className="mt-4 grid gap-3 rounded-md bg-slate-50 p-3 text-sm ring-1 ring-slate-200 md:grid-cols-2"
      data-testid="withdrawal-facts"
    >
      <dl className="space-y-1 text-slate-700">
        <div>
          <dt className="inline font-medium">Paid to </dt>
          <dd className="inline" data-testid="withdrawal-payout-name">
            {payoutName ? (
              <>
                <strong>{payoutName}</strong> (the payout details registered with the Issuing Service)
              </>
            ) : (
              "the payout details registered with the Issuing Service, not named yet"
            )}
          </dd>
        </div>
        <div>
          <dt className="inline font-medium">Net amount </dt>
          <dd className="inline" data-testid="withdrawal-net">
            <strong className="tabular-nums">{money(w.netAmount, w.currency)}</strong> {w.currency} arrives there, after the{" "}
            {money(w.fee, w.currency)} fee
          </dd>
        </div>
      </dl>
      {balance ? (
        <div data-testid="withdrawal-balance">
          <p className="font-medium text-slate-900">Wallet</p>
          <BalanceAfterFacts balance={balance} what="this withdrawal" />
        </div>
      ) : null}
    </div>
  );
}

/** One request: amount and terms, who did each step and when, what an approver weighs, and what the viewer may do. */
export function WithdrawalCard({
  withdrawal: w,
  canApprove,
  facts = null,
}: {
  withdrawal: WithdrawalView;
  canApprove: boolean;
  /** For a waiting request: the payout details' name and the wallet after it (lib/withdrawals/withdrawal-approval-facts.ts). */
  facts?: { payoutName: string; balance: BalancesAfter | null } | null;
}) {
  const who = (p: { name: string } | null) => p?.name ?? "someone no longer on staff";
  return (
    <article
      className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
      data-testid="withdrawal"
      data-id={w.id}
      aria-labelledby={`${w.id}-title`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${w.id}-title`} className="text-lg font-semibold tabular-nums text-slate-900">
            {money(w.amount, w.currency)}
          </h2>
          <p className="text-sm text-slate-600">
            {w.state === "paid"
              ? `Fee ${money(w.fee, w.currency)} · ${money(w.netAmount, w.currency)} paid out ${utcTime(w.paidAt ?? w.payoutDate)}`
              : ["rejected", "expired", "cancelled", "failed"].includes(w.state)
                ? `Fee ${money(w.fee, w.currency)} · nothing paid out`
                : `Fee ${money(w.fee, w.currency)} · ${money(w.netAmount, w.currency)} to be paid out ${w.upstreamId ? "" : "about "}${utcTime(w.payoutDate)}`}
          </p>
        </div>
        <WithdrawalStateBadge state={w.state} label={w.stateLabel} />
      </div>

      <ol className="mt-4 space-y-1.5 text-sm" aria-label="Steps">
        <Step done>
          Requested by <strong>{who(w.requestedBy)}</strong> at {utcTime(w.requestedAt)}: “{w.reason}”
        </Step>
        {w.decision === "approved" ? (
          <Step done>
            Approved by <strong>{who(w.decidedBy)}</strong> at {utcTime(w.decidedAt!)}
            {w.decisionComment ? `: “${w.decisionComment}”` : ""}
          </Step>
        ) : w.decision === "rejected" ? (
          <Step done>
            Rejected by <strong>{who(w.decidedBy)}</strong> at {utcTime(w.decidedAt!)}: “{w.decisionComment}”. Never sent.
          </Step>
        ) : w.state === "pending" ? (
          <Step done={false}>Awaiting approval by another person; expires {utcTime(w.expiresAt)}</Step>
        ) : w.state === "expired" ? (
          <Step done>Expired unapproved at {utcTime(w.expiresAt)}. Never sent.</Step>
        ) : null}
        {w.waitsForBackgroundWork ? (
          <Step done={false}>Waiting to be sent: background work is stopped. It is sent once, as soon as it runs again.</Step>
        ) : null}
        {w.state === "sending" ? (
          <Step done={false}>
            Sending to the Issuing Service{w.sendAttempts > 1 ? ` (attempt ${w.sendAttempts})` : ""}. The answer was lost; the app
            is checking the Issuing Service&apos;s list before anything is sent again, so it is never paid twice.
          </Step>
        ) : null}
        {w.upstreamId ? (
          <Step done>
            Requested at the Issuing Service{w.sentAt ? ` at ${utcTime(w.sentAt)}` : ""}{" "}
            <span className="font-mono text-xs text-slate-500">({w.upstreamId})</span>
          </Step>
        ) : null}
        {w.state === "paid" ? <Step done>Paid out at {utcTime(w.paidAt ?? w.payoutDate)}</Step> : null}
        {w.state === "cancelled" ? (
          <Step done>
            Cancelled{" "}
            {w.cancelledBy ? (
              <>
                by <strong>{w.cancelledBy.name}</strong>{" "}
              </>
            ) : (
              "at the Issuing Service "
            )}
            {w.cancelledAt ? `at ${utcTime(w.cancelledAt)}` : ""}
            {w.upstreamId ? "" : ". Never sent."}
          </Step>
        ) : null}
        {w.state === "failed" ? (
          <Step done>
            Refused by the Issuing Service: {w.failureMessage}
            {w.correlationId ? <span className="font-mono text-xs text-slate-500"> (reference {w.correlationId})</span> : null}
          </Step>
        ) : null}
      </ol>

      {w.state === "pending" && facts ? <BeforeDeciding w={w} payoutName={facts.payoutName} balance={facts.balance} /> : null}

      {w.state === "pending" && w.actions.ownRequest && canApprove ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="own-request-note">
          You requested this withdrawal, so another approver must decide it.
        </p>
      ) : null}
      <div className="mt-4">
        <WithdrawalActions withdrawal={w} payoutName={w.state === "pending" && facts ? facts.payoutName : null} />
      </div>
    </article>
  );
}
