import { formatMoney } from "@/lib/money";
import type { DepositView } from "@/lib/wallet/deposit-view";
import { utcTime } from "@/components/ui/utc-time";
import { shortHash } from "./format";
import { TableScroll } from "@/components/ui/table-scroll";

const RAILS: Record<string, string> = { "bsc-usd": "BSC-USD on chain", "bank-transfer": "Bank transfer" };

/** Deposits as the Issuing Service lists them: on-chain ones by transaction, others by reference. */
export function DepositsTable({ items }: { items: DepositView[] }) {
  return (
    <TableScroll label="Deposits">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="deposits-table">
        <caption className="sr-only">Deposits, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-2">Time (UTC)</th>
            <th scope="col" className="px-4 py-2 text-right">Amount</th>
            <th scope="col" className="px-4 py-2">Rail</th>
            <th scope="col" className="px-4 py-2">Transaction</th>
            <th scope="col" className="px-4 py-2 text-right">Confirmations</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((d) => (
            <tr key={d.id} data-deposit-id={d.id} data-amount-minor={d.amountMinor}>
              <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">
                <time dateTime={d.occurredAt}>{utcTime(d.occurredAt).replace(" UTC", "")}</time>
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums">{formatMoney(d.amountMinor, d.currency)}</td>
              <td className="whitespace-nowrap px-4 py-2">{d.rail ? (RAILS[d.rail] ?? d.rail) : "—"}</td>
              <td className="px-4 py-2 font-mono text-xs">
                <DepositReference deposit={d} />
              </td>
              <td className="px-4 py-2 text-right tabular-nums">{d.confirmations ?? <span className="text-slate-500" title="Not an on-chain deposit">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
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
