import { formatMoney } from "@/lib/money";
import type { CreditView } from "@/lib/wallet/list-credits";
import { DepositReference } from "./deposits-table";
import { utcTime } from "@/components/ui/utc-time";
import { DataTable, type Column } from "@/components/ui/data-table";

const UNMATCHED: Record<NonNullable<CreditView["unmatchedReason"]>, string> = {
  no_deposit_fits: "No deposit has this amount at about this time.",
  beyond_searched_history: "Not among the recent deposits searched; it may be an older one.",
};

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s === 0 ? "same time" : `${Math.abs(s)} s ${s > 0 ? "after" : "before"} the deposit`;
}

const COLUMNS: Column<CreditView>[] = [
  {
    key: "credited",
    header: "Credited (UTC)",
    className: "whitespace-nowrap font-mono text-xs",
    cell: (c) => <time dateTime={c.occurredAt}>{utcTime(c.occurredAt, "minute", true)}</time>,
  },
  {
    key: "amount",
    header: "Amount",
    align: "right",
    className: "whitespace-nowrap tabular-nums",
    cell: (c) => formatMoney(c.amountMinor, c.currency),
  },
  {
    key: "balance",
    header: "Balance after",
    align: "right",
    className: "whitespace-nowrap tabular-nums",
    cell: (c) => (c.availableBalanceMinor ? formatMoney(c.availableBalanceMinor, c.currency) : "—"),
  },
  { key: "deposit", header: "Matched deposit", cell: (c) => <MatchedDeposit credit={c} /> },
];

/** wallet.credited webhooks as recorded, each beside the deposit it was matched to by amount and time. */
export function CreditsTable({ items }: { items: CreditView[] }) {
  return (
    <DataTable
      rows={items}
      row={(c) => ({
        key: c.eventId,
        "data-event-id": c.eventId,
        "data-matched": c.deposit ? "yes" : "no",
        "data-deposit-id": c.deposit?.id,
      })}
      name={{ label: "Credits", caption: "Wallet credits, newest first, with the matched deposit", testId: "credits-table" }}
      variant="compact"
      columns={COLUMNS}
      empty={{ text: "No credits recorded yet.", testId: "credits-empty" }}
    />
  );
}

function MatchedDeposit({ credit: c }: { credit: CreditView }) {
  if (!c.deposit) {
    return (
      <span className="text-xs">
        <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700" data-testid="credit-unmatched">
          Unmatched
        </span>
        <span className="ml-2 text-slate-500">{UNMATCHED[c.unmatchedReason ?? "no_deposit_fits"]}</span>
      </span>
    );
  }
  return (
    <span className="text-xs">
      <span className="font-mono">
        <DepositReference deposit={c.deposit} />
      </span>
      <span className="block text-slate-500">
        {seconds(Date.parse(c.occurredAt) - Date.parse(c.deposit.creditedAt ?? c.deposit.occurredAt))}
        {c.candidates > 1 ? ` · closest of ${c.candidates} deposits with this amount` : ""}
      </span>
    </span>
  );
}
