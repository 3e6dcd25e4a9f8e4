import type { ReactNode } from "react";
import { formatMoney } from "@/lib/money";
import type { ReconciliationView } from "@/lib/reconciliation/reconciliation-view";
import type { Explanation } from "@/lib/reconciliation/explain-difference";
import { Card } from "@/components/ui/page-header";
import { DataTable, type Column } from "@/components/ui/data-table";
import { utcTime } from "@/components/ui/utc-time";
import { ReconciliationStatus } from "./reconciliation-status";

const KIND: Record<Explanation["kind"], string> = {
  unknown_order: "Order not in this app's records",
  order_state: "Order in another state here",
  unheard_deposit: "Deposit never heard of",
  unknown_withdrawal: "Withdrawal not made here",
};

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** One currency of a kept day: the statement line by line, the day-end read, and the explanations. */
export function DayStatement({ row: r }: { row: ReconciliationView }) {
  const money = (minor: string | null) => (minor === null ? "—" : formatMoney(minor, r.currency));
  const columns: Column<Explanation>[] = [
    { key: "kind", header: "What", rowHeader: true, cell: (e) => KIND[e.kind] ?? e.kind },
    { key: "id", header: "Id", className: "break-all font-mono text-xs", cell: (e) => e.id },
    {
      key: "at",
      header: "When (UTC)",
      className: "whitespace-nowrap font-mono text-xs",
      cell: (e) => utcTime(e.at, "second", true),
    },
    { key: "amount", header: "Share of the difference", align: "right", cell: (e) => money(e.amountMinor) },
    { key: "note", header: "Note", className: "text-xs text-slate-600", cell: (e) => e.note },
  ];
  const unexplained = r.differenceMinor === null ? 0n : BigInt(r.differenceMinor) - BigInt(r.explainedMinor);
  return (
    <Card>
      <section aria-labelledby={`statement-${r.currency}`} data-testid="reconciliation-statement" data-currency={r.currency}>
        <div className="mb-3 flex flex-wrap items-center gap-3">
          <h2 id={`statement-${r.currency}`} className="text-lg font-semibold text-slate-900">
            {r.currency}
          </h2>
          <ReconciliationStatus status={r.status} />
        </div>
        <dl className="grid max-w-xl grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
          <Line label="Opening (the day before's closing)">{money(r.openingMinor)}</Line>
          <Line label={`− Orders captured (${count(r.capturedCount, "order")})`}>{money(r.capturedMinor)}</Line>
          <Line label={`+ Refunds (${count(r.refundedCount, "order")})`}>{money(r.refundedMinor)}</Line>
          <Line label={`+ Credits (${count(r.creditedCount, "credit")})`}>{money(r.creditedMinor)}</Line>
          <Line label={`− Withdrawals paid (${count(r.withdrawnCount, "withdrawal")})`}>{money(r.withdrawnMinor)}</Line>
          <Line label="= Expected closing" strong>
            {money(r.expectedClosingMinor)}
          </Line>
          <Line label="Day-end balance at the Issuing Service">{money(r.closingMinor)}</Line>
          <Line label="Difference" strong testId="reconciliation-day-difference">
            {money(r.differenceMinor)}
          </Line>
        </dl>
        <p className="mt-3 text-xs text-slate-600">
          Read at {utcTime(r.readAt, "second")}: total {money(r.readTotalMinor)} (available {money(r.readAvailableMinor)},
          reserved for orders {money(r.readReservedMinor)}, held for withdrawals {money(r.readPendingMinor)}); the movements this
          app knows of between the day&apos;s end and the read ({money(r.afterDayMinor)}) are taken back out.
        </p>
        {r.status === "difference" ? (
          <div className="mt-4">
            <h3 className="mb-2 text-sm font-semibold text-slate-900">What explains the difference</h3>
            <DataTable
              rows={r.explanations}
              row={(e) => ({ key: `${e.kind}-${e.id}`, "data-kind": e.kind })}
              name={{ label: `Explanations of the ${r.currency} difference`, testId: "reconciliation-explanations" }}
              columns={columns}
              variant="compact"
              empty={{
                text: "The Issuing Service shows no movement this app's records miss.",
                testId: "reconciliation-unexplained",
              }}
            />
            {unexplained !== 0n ? (
              <p className="mt-2 text-sm text-slate-700">
                Not explained: {money(unexplained.toString())} (a movement the Issuing Service does not list, such as a balance
                adjusted by its staff).
              </p>
            ) : null}
            {r.explanationNote ? <p className="mt-1 text-xs text-slate-600">{r.explanationNote}</p> : null}
          </div>
        ) : null}
      </section>
    </Card>
  );
}

function Line({ label, strong, testId, children }: { label: string; strong?: boolean; testId?: string; children: ReactNode }) {
  const weight = strong ? "font-semibold text-slate-900" : "text-slate-700";
  return (
    <>
      <dt className={weight}>{label}</dt>
      <dd className={`text-right tabular-nums ${weight}`} data-testid={testId}>
        {children}
      </dd>
    </>
  );
}
