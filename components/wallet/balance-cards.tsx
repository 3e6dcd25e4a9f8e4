import { formatMoney } from "@/lib/money";
import type { WalletOverview } from "@/lib/wallet/get-wallet-overview";
import { utcTime } from "@/components/ui/utc-time";

/** One card per currency: what can be spent now, what is held, and when this was read. */
export function BalanceCards({ overview }: { overview: WalletOverview }) {
  if (overview.balances.length === 0) {
    return (
      <p className="rounded-lg bg-white p-6 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200" data-testid="balances-empty">
        The wallet holds no currency yet. A deposit to the address below credits it.
      </p>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="balance-cards">
      {overview.balances.map((b) => (
        <li
          key={b.currency}
          className={`rounded-lg bg-white p-5 shadow-sm ring-1 ${b.low ? "ring-amber-300" : "ring-slate-200"}`}
          data-testid={`balance-${b.currency}`}
          data-available-minor={b.availableMinor}
        >
          <div className="flex items-center justify-between">
            <h3 className="text-sm font-semibold text-slate-700">{b.currency}</h3>
            {b.low ? (
              <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800" data-testid="balance-low">
                Below {formatMoney(b.thresholdMinor!, b.currency)}
              </span>
            ) : null}
          </div>
          <p className="mt-2 text-xs font-medium uppercase tracking-wide text-slate-500">Available</p>
          <p className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="balance-available">
            {formatMoney(b.availableMinor, b.currency)}
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500">Reserved for orders</dt>
            <dd className="text-right tabular-nums">{formatMoney(b.reservedMinor, b.currency)}</dd>
            <dt className="text-slate-500">Pending withdrawals</dt>
            <dd className="text-right tabular-nums">{formatMoney(b.pendingWithdrawalMinor, b.currency)}</dd>
            <dt className="font-medium text-slate-700">Total</dt>
            <dd className="text-right font-medium tabular-nums">{formatMoney(b.totalMinor, b.currency)}</dd>
          </dl>
          <p className="mt-3 text-xs text-slate-500">
            Read at <time dateTime={overview.readAt}>{utcTime(overview.readAt, "second")}</time>
          </p>
          {b.updatedAt ? (
            <p className="text-xs text-slate-500">
              Last movement <time dateTime={b.updatedAt}>{utcTime(b.updatedAt)}</time>
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
