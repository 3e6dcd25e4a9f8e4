import type { LiveSession } from "@/lib/auth/staff-session";
import { formatMoney } from "@/lib/money";
import { getWalletOverview, type WalletOverview } from "@/lib/wallet/get-wallet-overview";
import { getFinanceSpend, type CurrencySpend } from "@/lib/overview/finance-spend";
import { getPendingWithdrawals, type PendingWithdrawals } from "@/lib/overview/finance-withdrawals";
import { getRecentDeposits, type RecentDeposits } from "@/lib/overview/finance-deposits";
import { BarChart } from "@/components/charts/bar-chart";
import { utcTime } from "@/components/ui/utc-time";
import { HomeBlock, HomeSection } from "./home-block";
import { settleAll } from "@/components/ui/settle";
import { BlockBody, Figures } from "./home-figures";
import { LowBalanceLead } from "./low-balance-lead";
import { RefreshSoon } from "./refresh-soon";

/** Its reads, started by the home page (a section whose reads are quick comes with the page). */
export function loadFinanceHome(session: LiveSession) {
  return settleAll([
    getWalletOverview(session.actor, { fresh: false }),
    getFinanceSpend(session.actor),
    getPendingWithdrawals(session.actor),
    getRecentDeposits(session.actor),
  ] as const);
}

/**
 * Finance's blocks on the home page: balances against their thresholds, spend (captured
 * orders, see lib/overview/finance-spend.ts) today, this month and over 30 days, what waits
 * to leave the wallet, and what came in this week. A balance below its threshold leads the
 * section: finance are the ones who top the wallet up. Only the balances come from the
 * upstream (the shared read of up to a minute ago, read again when the wallet moved since:
 * lib/wallet/current-balances.ts); the rest is this app's own records.
 */
export async function FinanceHome({ data }: { data: ReturnType<typeof loadFinanceHome> }) {
  const [balances, spend, withdrawals, deposits] = await data;
  const low = balances.ok ? balances.value.balances.filter((b) => b.low) : [];
  return (
    <HomeSection title="Finance">
      {low.length > 0 && balances.ok ? <LowBalanceLead low={low} readAt={balances.value.readAt} /> : null}
      <HomeBlock title="Balances" href="/wallet" linkLabel="Open the wallet" testId="home-finance-balances">
        <BlockBody
          result={balances}
          what="The balances"
          empty={(v) => (v.balances.length ? null : "The wallet holds no currency yet.")}
        >
          {(overview) => <Balances overview={overview} />}
        </BlockBody>
      </HomeBlock>
      <div className="grid content-start gap-4">
        <HomeBlock
          title="Waiting to leave the wallet"
          href="/withdrawals"
          linkLabel="Withdrawals"
          testId="home-finance-withdrawals"
        >
          <BlockBody
            result={withdrawals}
            what="The withdrawals"
            empty={(v) => (v.currencies.length ? null : "No withdrawal is waiting or on its way.")}
          >
            {(waiting) => <Withdrawals waiting={waiting} />}
          </BlockBody>
        </HomeBlock>
        <HomeBlock title="Deposits, last 7 days" href="/wallet" linkLabel="Wallet" testId="home-finance-deposits">
          <BlockBody
            result={deposits}
            what="The deposits"
            empty={(v) => (v.currencies.length ? null : "No deposit was credited in the last 7 days.")}
          >
            {(recent) => <Deposits recent={recent} />}
          </BlockBody>
        </HomeBlock>
      </div>
      <div className="lg:col-span-2">
        <HomeBlock
          title="Spend (captured orders)"
          href="/orders?status=fulfilled,refunded"
          linkLabel="Orders"
          testId="home-finance-spend"
        >
          <BlockBody
            result={spend}
            what="The spend"
            empty={(v) => (v.currencies.length ? null : "No order was captured in the last 30 days.")}
          >
            {(value) => (
              <div className="space-y-6">
                {value.currencies.map((c) => (
                  <SpendOfCurrency key={c.currency} spend={c} />
                ))}
              </div>
            )}
          </BlockBody>
          <p className="mt-3 text-xs text-slate-500">
            Spend is the total of orders the Issuing Service captured (fulfilled, including those refunded since; a refund is a
            credit of its own), on the UTC day each order was placed.
          </p>
        </HomeBlock>
      </div>
    </HomeSection>
  );
}

function Balances({ overview }: { overview: WalletOverview }) {
  return (
    <>
      <ul className="divide-y divide-slate-100">
        {overview.balances.map((b) => (
          <li
            key={b.currency}
            className="flex flex-wrap items-baseline justify-between gap-x-4 py-2"
            data-testid={`home-balance-${b.currency}`}
          >
            <span className="text-sm font-semibold text-slate-700">{b.currency}</span>
            <span className="text-lg font-semibold tabular-nums text-slate-900">{formatMoney(b.availableMinor, b.currency)}</span>
            <span className={`w-full text-xs ${b.low ? "font-medium text-amber-800" : "text-slate-500"}`}>
              {b.thresholdMinor === null
                ? "No low-balance threshold set"
                : `${b.low ? "Below" : "Above"} the ${formatMoney(b.thresholdMinor, b.currency)} threshold`}
            </span>
          </li>
        ))}
      </ul>
      {/* To the second: the figure is up to a minute old, and what moved within that minute is what matters. */}
      <p className="mt-2 text-xs text-slate-500" data-testid="home-balance-read-at">
        Available to spend, as read at {utcTime(overview.readAt, "second")}.
      </p>
      {overview.updating ? (
        <p className="mt-1 text-xs font-medium text-amber-800" data-testid="home-balance-updating">
          Updating: the wallet moved at {utcTime(overview.movedAt, "second")}, after this read. The new figure follows in a few
          seconds.
          <RefreshSoon afterMs={4_000} />
        </p>
      ) : null}
    </>
  );
}

function Withdrawals({ waiting }: { waiting: PendingWithdrawals }) {
  return (
    <>
      <ul className="divide-y divide-slate-100 text-sm">
        {waiting.currencies.map((c) => (
          <li key={c.currency} className="py-2 text-slate-700" data-testid={`home-withdrawals-${c.currency}`}>
            <span className="font-semibold">{c.currency}</span> {c.awaitingCount} awaiting approval (
            {formatMoney(c.awaitingMinor, c.currency)}) · {c.inFlightCount} approved, not paid yet (
            {formatMoney(c.inFlightMinor, c.currency)})
          </li>
        ))}
      </ul>
      {waiting.oldestAwaiting ? (
        <p className="mt-2 text-xs text-slate-500">
          Oldest awaiting approval: requested {utcTime(waiting.oldestAwaiting.requestedAt)}, expires{" "}
          {utcTime(waiting.oldestAwaiting.expiresAt)}.
        </p>
      ) : null}
    </>
  );
}

function Deposits({ recent }: { recent: RecentDeposits }) {
  const latest = recent.latest[0];
  return (
    <>
      <ul className="divide-y divide-slate-100 text-sm">
        {recent.currencies.map((c) => (
          <li key={c.currency} className="flex justify-between gap-4 py-2" data-testid={`home-deposits-${c.currency}`}>
            <span>
              <span className="font-semibold text-slate-700">{c.currency}</span> {c.count} {c.count === 1 ? "credit" : "credits"}
            </span>
            <span className="font-semibold tabular-nums text-slate-900">{formatMoney(c.minor, c.currency)}</span>
          </li>
        ))}
      </ul>
      {latest ? (
        <p className="mt-2 text-xs text-slate-500">
          Latest: {formatMoney(latest.minor, latest.currency)} at {utcTime(latest.at)}, as the Issuing Service announced it.
        </p>
      ) : null}
    </>
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
        />
      </div>
    </div>
  );
}
