import type { LiveSession } from "@/lib/auth/staff-session";
import { formatMoney } from "@/lib/money";
import { getWalletOverview } from "@/lib/wallet/get-wallet-overview";
import { getFinanceSpend, type CurrencySpend } from "@/lib/overview/finance-spend";
import { getPendingWithdrawals } from "@/lib/overview/finance-withdrawals";
import { getRecentDeposits } from "@/lib/overview/finance-deposits";
import { BarChart } from "@/components/charts/bar-chart";
import { utcTime } from "@/components/ui/utc-time";
import { HomeBlock, HomeSection } from "./home-block";
import { BlockError, Figures, settle } from "./home-figures";

/**
 * Finance's blocks on the home page: balances against their thresholds, spend (captured
 * orders, see lib/overview/finance-spend.ts) today, this month and over 30 days, what waits
 * to leave the wallet, and what came in this week. Only the balances come from the
 * upstream (the shared read of up to a minute ago); the rest is this app's own records.
 */
export async function FinanceHome({ session }: { session: LiveSession }) {
  const { actor } = session;
  const [balances, spend, withdrawals, deposits] = await Promise.all([
    settle(getWalletOverview(actor, { fresh: false })),
    settle(getFinanceSpend(actor)),
    settle(getPendingWithdrawals(actor)),
    settle(getRecentDeposits(actor)),
  ]);
  return (
    <HomeSection title="Finance">
      {/* The reconciliation notice goes here, first in the section (components/reconciliation, wired by the lead). */}
      <HomeBlock title="Balances" href="/wallet" linkLabel="Open the wallet" testId="home-finance-balances">
        {!balances.ok ? (
          <BlockError error={balances.error} what="The balances" />
        ) : balances.value.balances.length === 0 ? (
          <p className="text-sm text-slate-600">The wallet holds no currency yet.</p>
        ) : (
          <>
            <ul className="divide-y divide-slate-100">
              {balances.value.balances.map((b) => (
                <li
                  key={b.currency}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 py-2"
                  data-testid={`home-balance-${b.currency}`}
                >
                  <span className="text-sm font-semibold text-slate-700">{b.currency}</span>
                  <span className="text-lg font-semibold tabular-nums text-slate-900">
                    {formatMoney(b.availableMinor, b.currency)}
                  </span>
                  <span className={`w-full text-xs ${b.low ? "font-medium text-amber-800" : "text-slate-500"}`}>
                    {b.thresholdMinor === null
                      ? "No low-balance threshold set"
                      : b.low
                        ? `Below the ${formatMoney(b.thresholdMinor, b.currency)} threshold`
                        : `Above the ${formatMoney(b.thresholdMinor, b.currency)} threshold`}
                  </span>
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-slate-500">Available to spend, as read at {utcTime(balances.value.readAt)}.</p>
          </>
        )}
      </HomeBlock>
      <div className="grid content-start gap-4">
        <HomeBlock
          title="Waiting to leave the wallet"
          href="/withdrawals"
          linkLabel="Withdrawals"
          testId="home-finance-withdrawals"
        >
          {!withdrawals.ok ? (
            <BlockError error={withdrawals.error} what="The withdrawals" />
          ) : withdrawals.value.currencies.length === 0 ? (
            <p className="text-sm text-slate-600">No withdrawal is waiting or on its way.</p>
          ) : (
            <>
              <ul className="divide-y divide-slate-100 text-sm">
                {withdrawals.value.currencies.map((c) => (
                  <li key={c.currency} className="py-2" data-testid={`home-withdrawals-${c.currency}`}>
                    <span className="font-semibold text-slate-700">{c.currency}</span>{" "}
                    <span className="text-slate-700">
                      {c.awaitingCount} awaiting approval ({formatMoney(c.awaitingMinor, c.currency)}) · {c.inFlightCount}{" "}
                      approved, not paid yet ({formatMoney(c.inFlightMinor, c.currency)})
                    </span>
                  </li>
                ))}
              </ul>
              {withdrawals.value.oldestAwaiting ? (
                <p className="mt-2 text-xs text-slate-500">
                  Oldest awaiting approval: requested {utcTime(withdrawals.value.oldestAwaiting.requestedAt)}, expires{" "}
                  {utcTime(withdrawals.value.oldestAwaiting.expiresAt)}.
                </p>
              ) : null}
            </>
          )}
        </HomeBlock>
        <HomeBlock title="Deposits, last 7 days" href="/wallet" linkLabel="Wallet" testId="home-finance-deposits">
          {!deposits.ok ? (
            <BlockError error={deposits.error} what="The deposits" />
          ) : deposits.value.currencies.length === 0 ? (
            <p className="text-sm text-slate-600">No deposit was credited in the last 7 days.</p>
          ) : (
            <>
              <ul className="divide-y divide-slate-100 text-sm">
                {deposits.value.currencies.map((c) => (
                  <li key={c.currency} className="flex justify-between gap-4 py-2" data-testid={`home-deposits-${c.currency}`}>
                    <span>
                      <span className="font-semibold text-slate-700">{c.currency}</span> {c.count}{" "}
                      {c.count === 1 ? "credit" : "credits"}
                    </span>
                    <span className="font-semibold tabular-nums text-slate-900">{formatMoney(c.minor, c.currency)}</span>
                  </li>
                ))}
              </ul>
              <p className="mt-2 text-xs text-slate-500">
                Latest: {formatMoney(deposits.value.latest[0]!.minor, deposits.value.latest[0]!.currency)} at{" "}
                {utcTime(deposits.value.latest[0]!.at)}. As the Issuing Service announced them (wallet.credited).
              </p>
            </>
          )}
        </HomeBlock>
      </div>
      <div className="lg:col-span-2">
        <HomeBlock
          title="Spend (captured orders)"
          href="/orders?status=fulfilled,refunded"
          linkLabel="Orders"
          testId="home-finance-spend"
        >
          {!spend.ok ? (
            <BlockError error={spend.error} what="The spend" />
          ) : spend.value.currencies.length === 0 ? (
            <p className="text-sm text-slate-600">No order was captured in the last 30 days.</p>
          ) : (
            <div className="space-y-6">
              {spend.value.currencies.map((c) => (
                <SpendOfCurrency key={c.currency} spend={c} />
              ))}
            </div>
          )}
          <p className="mt-3 text-xs text-slate-500">
            Spend is the total of orders the Issuing Service captured (fulfilled, including those refunded since; a refund is a
            credit of its own), on the UTC day each order was placed.
          </p>
        </HomeBlock>
      </div>
    </HomeSection>
  );
}

function SpendOfCurrency({ spend }: { spend: CurrencySpend }) {
  const { currency } = spend;
  const money = (v: number | string) => formatMoney(BigInt(v), currency);
  const first = spend.days[0]!.day;
  const last = spend.days[spend.days.length - 1]!.day;
  return (
    <div data-testid={`home-spend-${currency}`}>
      <Figures
        figures={[
          { label: `Today, ${currency}`, value: money(spend.todayMinor), testId: `home-spend-today-${currency}` },
          { label: `This month, ${currency}`, value: money(spend.monthMinor), testId: `home-spend-month-${currency}` },
        ]}
      />
      <div className="mt-3">
        <BarChart
          id={`spend-chart-${currency}`}
          testId={`spend-chart-${currency}`}
          title={`${currency} spend per day, ${first} to ${last}`}
          summary={`Captured ${currency} orders per UTC day from ${first} to ${last}: ${money(
            spend.days.reduce((sum, d) => sum + BigInt(d.minor), 0n).toString(),
          )} in all; today ${money(spend.todayMinor)}.`}
          bars={spend.days.map((d) => ({ label: d.day, values: [Number(d.minor)] }))}
          series={[{ name: `${currency} spend`, className: "fill-brand-500" }]}
          format={(v) => money(Math.round(v))}
          labelHeader="Day (UTC)"
          tableCaption={`${currency} spend per UTC day (captured orders)`}
          wide={960}
        />
      </div>
    </div>
  );
}
