import { formatMoney } from "@/lib/money";
import type { CreditView } from "@/lib/wallet/list-credits";
import { DepositReference } from "./deposits-table";
import { utcTime } from "@/components/ui/utc-time";
import { TableScroll } from "@/components/ui/table-scroll";

const UNMATCHED: Record<NonNullable<CreditView["unmatchedReason"]>, string> = {
  no_deposit_fits: "No deposit has this amount at about this time.",
  beyond_searched_history: "Not among the recent deposits searched; it may be an older one.",
};

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s === 0 ? "same time" : `${Math.abs(s)} s ${s > 0 ? "after" : "before"} the deposit`;
}

/** wallet.credited webhooks as recorded, each beside the deposit it was matched to by amount and time. */
export function CreditsTable({ items }: { items: CreditView[] }) {
  return (
    <TableScroll label="Credits">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="credits-table">
        <caption className="sr-only">Wallet credits, newest first, with the matched deposit</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-2">Credited (UTC)</th>
            <th scope="col" className="px-4 py-2 text-right">Amount</th>
            <th scope="col" className="px-4 py-2 text-right">Balance after</th>
            <th scope="col" className="px-4 py-2">Matched deposit</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((c) => (
            <tr key={c.eventId} data-event-id={c.eventId} data-matched={c.deposit ? "yes" : "no"} data-deposit-id={c.deposit?.id}>
              <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">
                <time dateTime={c.occurredAt}>{utcTime(c.occurredAt).replace(" UTC", "")}</time>
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums">{formatMoney(c.amountMinor, c.currency)}</td>
              <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums">{c.availableBalanceMinor ? formatMoney(c.availableBalanceMinor, c.currency) : "—"}</td>
              <td className="px-4 py-2">
                {c.deposit ? (
                  <span className="text-xs">
                    <span className="font-mono">
                      <DepositReference deposit={c.deposit} />
                    </span>
                    <span className="block text-slate-500">
                      {seconds(Date.parse(c.occurredAt) - Date.parse(c.deposit.creditedAt ?? c.deposit.occurredAt))}
                      {c.candidates > 1 ? ` · closest of ${c.candidates} deposits with this amount` : ""}
                    </span>
                  </span>
                ) : (
                  <span className="text-xs">
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700" data-testid="credit-unmatched">
                      Unmatched
                    </span>
                    <span className="ml-2 text-slate-500">{UNMATCHED[c.unmatchedReason ?? "no_deposit_fits"]}</span>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
