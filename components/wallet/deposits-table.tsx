import { formatMoney } from "@/lib/money";
import type { DepositView } from "@/lib/wallet/deposit-view";
import { utcTime } from "@/components/ui/utc-time";
import { shortHash } from "./format";
import { DataTable, type Column } from "@/components/ui/data-table";

const RAILS: Record<string, string> = { "bsc-usd": "BSC-USD on chain", "bank-transfer": "Bank transfer" };

const COLUMNS: Column<DepositView>[] = [
  {
    key: "time",
    header: "Time (UTC)",
    className: "whitespace-nowrap font-mono text-xs",
    cell: (d) => <time dateTime={d.occurredAt}>{utcTime(d.occurredAt, "minute", true)}</time>,
  },
  {
    key: "amount",
    header: "Amount",
    align: "right",
    className: "whitespace-nowrap tabular-nums",
    cell: (d) => formatMoney(d.amountMinor, d.currency),
  },
  { key: "rail", header: "Rail", className: "whitespace-nowrap", cell: (d) => (d.rail ? (RAILS[d.rail] ?? d.rail) : "—") },
  { key: "tx", header: "Transaction", className: "font-mono text-xs", cell: (d) => <DepositReference deposit={d} /> },
  {
    key: "confirmations",
    header: "Confirmations",
    align: "right",
    className: "tabular-nums",
    cell: (d) =>
      d.confirmations ?? (
        <span className="text-slate-500" title="Not an on-chain deposit">
          —
        </span>
      ),
  },
];

/** Deposits as the Issuing Service lists them: on-chain ones by transaction, others by reference. */
export function DepositsTable({ items, emptyText }: { items: DepositView[]; emptyText: string }) {
  return (
    <DataTable
      rows={items}
      row={(d) => ({ key: d.id, "data-deposit-id": d.id, "data-amount-minor": d.amountMinor })}
      name={{ label: "Deposits", caption: "Deposits, newest first", testId: "deposits-table" }}
      variant="compact"
      columns={COLUMNS}
      empty={{ text: emptyText, testId: "deposits-empty" }}
    />
  );
}

export function DepositReference({ deposit }: { deposit: DepositView }) {
  if (deposit.transactionHash) {
    return (
      <span title={deposit.transactionHash} data-testid="deposit-tx">
        {shortHash(deposit.transactionHash, 10)}
      </span>
    );
  }
  return <span title="Reference of the payment">{deposit.reference ?? "—"}</span>;
}
