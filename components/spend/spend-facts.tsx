import { formatMoney, parseMinor } from "@/lib/money";
import type { SpendApprovalFacts, SpendWindowFacts } from "@/lib/spend/spend-approval-facts";
import { BalanceAfterFacts } from "@/components/wallet/balance-after";

const money = (amount: string, currency: string) => formatMoney(parseMinor(amount, currency), currency);

function Period({ label, facts, currency }: { label: string; facts: SpendWindowFacts; currency: string }) {
  return (
    <tr data-testid={`spend-so-far-${label === "Today" ? "today" : "month"}`}>
      <th scope="row" className="py-1 pr-3 text-left font-medium">
        {label}
      </th>
      <td className="px-2 py-1 text-right tabular-nums">{money(facts.spent, currency)}</td>
      <td className={`px-2 py-1 text-right tabular-nums ${facts.overLimit ? "font-semibold text-amber-800" : ""}`}>
        {money(facts.withThis, currency)}
      </td>
      <td className="py-1 pl-2 text-right tabular-nums">{facts.limit === null ? "no limit" : money(facts.limit, currency)}</td>
    </tr>
  );
}

/** Beside a waiting request: the buyer's spend so far against their limits (UTC day and month), and the wallet after it. */
export function SpendFacts({ facts, buyer, what }: { facts: SpendApprovalFacts; buyer: string; what: string }) {
  return (
    <div className="grid gap-4 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200 md:grid-cols-2" data-testid="spend-facts">
      {facts.spend.map((s) => (
        <div key={s.currency} data-testid={`spend-so-far-${s.currency}`}>
          <h3 className="text-sm font-semibold text-slate-900">
            {buyer}&apos;s spend in {s.currency}
          </h3>
          <table className="mt-1 w-full text-sm text-slate-700">
            <caption className="sr-only">
              {buyer}&apos;s spend in {s.currency} so far, with {what}, against their limits (UTC)
            </caption>
            <thead>
              <tr className="text-xs text-slate-500">
                <td />
                <th scope="col" className="px-2 text-right font-medium">
                  So far
                </th>
                <th scope="col" className="px-2 text-right font-medium">
                  With {what}
                </th>
                <th scope="col" className="pl-2 text-right font-medium">
                  Limit
                </th>
              </tr>
            </thead>
            <tbody>
              <Period label="Today" facts={s.today} currency={s.currency} />
              <Period label="This month" facts={s.month} currency={s.currency} />
            </tbody>
          </table>
          <p className="mt-1 text-xs text-slate-500">
            Days and months in UTC; requests waiting for approval count. Limit per order:{" "}
            {s.perOrder === null ? "none" : money(s.perOrder, s.currency)}.
          </p>
        </div>
      ))}
      {facts.balance ? (
        <div data-testid="spend-balance">
          <h3 className="text-sm font-semibold text-slate-900">Wallet</h3>
          <div className="mt-1">
            <BalanceAfterFacts balance={facts.balance} what={what} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
