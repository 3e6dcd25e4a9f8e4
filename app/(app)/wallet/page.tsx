import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Link } from "@/components/ui/link";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import { isAppError } from "@/lib/errors";
import { logger } from "@/lib/log";
import { getWalletOverview, type WalletOverview } from "@/lib/wallet/get-wallet-overview";
import { getBalanceHistory } from "@/lib/wallet/get-balance-history";
import { getDepositAddress, type DepositAddressView } from "@/lib/wallet/deposit-address";
import { depositCursorSchema, listDeposits, type DepositPageView } from "@/lib/wallet/list-deposits";
import { listCredits } from "@/lib/wallet/list-credits";
import { PageHeader, Card } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { isRateLimited, RetryLater } from "@/components/ui/rate-limited";
import { BalanceCards } from "@/components/wallet/balance-cards";
import { BalanceChart } from "@/components/wallet/balance-chart";
import { DepositAddressPanel } from "@/components/wallet/deposit-address-panel";
import { DepositsTable } from "@/components/wallet/deposits-table";
import { CreditsTable } from "@/components/wallet/credits-table";
import { loadReconciliationNotice, ReconciliationNotice } from "@/components/reconciliation/reconciliation-notice";
import { utcTime } from "@/components/ui/utc-time";
import { BackgroundWorkNotice } from "@/components/health/background-work-notice";
import { Pager } from "@/components/ui/pager";
import { settle, type Settled } from "@/components/ui/settle";
import { RevealInOrder, type Step } from "@/components/ui/reveal-in-order";
import { Bone, Busy } from "@/components/ui/skeleton";
import { firstParam, validCursor, type SearchParams } from "@/components/ui/search-params";

export const metadata: Metadata = { title: "Wallet" };

const DEPOSIT_PAGE = 20;

export default async function WalletPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("wallet.read");
  const raw = await searchParams;
  const { given: cursorParam, cursor } = validCursor(raw, "deposits", depositCursorSchema);
  const chartParam = firstParam(raw.chart);
  // One balance read serves the cards and the chart's anchor. Every section's read starts here,
  // at once, so that the sections whose data is quick come with the page.
  const overview = settle(getWalletOverview(actor));
  const chart = overview.then((result) => loadChart(actor, result, chartParam));
  const address = settle(getDepositAddress(actor));
  const deposits = settle(listDeposits(actor, { cursor, limit: DEPOSIT_PAGE }));
  const credits = settle(listCredits(actor, { limit: 20 }));

  return (
    <>
      <PageHeader
        title="Wallet"
        description="Balances as the Issuing Service reports them, read when this page loaded; the chart comes from this app's own records."
        actions={
          <Link href="/wallet/reconciliation" className="px-2 py-2 text-sm font-medium text-brand-600 hover:underline">
            Daily reconciliation →
          </Link>
        }
      />
      <BackgroundWorkNotice admin={actor.roles.includes("admin")} />
      <div className="space-y-6">
        <ReconciliationNotice days={loadReconciliationNotice(actor)} />
        {/* Each section comes with the page when its data is quick, else streams in, top to
            bottom (components/ui/reveal-in-order.tsx): one above that arrives later never
            pushes down one already on screen. */}
        <RevealInOrder
          steps={[
            {
              key: "balances",
              fallback: <BalancesFrame>{<Skeleton testId="balances-loading" label="Loading the balances…" />}</BalancesFrame>,
              ready: overview,
              content: (
                <BalancesFrame>
                  <Balances overview={overview} />
                </BalancesFrame>
              ),
            },
            card("chart", "Available balance, last 30 days", null, "h-72", chart, () => (
              <Chart chart={chart} deposits={cursor} />
            )),
            card("address", "Deposit address", null, "h-40", address, () => <Address actor={actor} address={address} />),
            card(`deposits:${cursor ?? ""}`, "Deposit history", null, "h-40", deposits, () => (
              <>
                {cursorParam && !cursor ? (
                  <div className="mb-3">
                    <Notice tone="warning">That page position was not valid; showing the newest deposits.</Notice>
                  </div>
                ) : null}
                <Deposits deposits={deposits} cursor={cursor} chart={chartParam} />
              </>
            )),
            card(
              "credits",
              "Credits",
              <p className="mb-3 mt-1 text-sm text-slate-600">
                Each credit the Issuing Service announced to this app, matched to its deposit by currency, exact amount and time
                (the credit from 5 minutes before to 60 minutes after the deposit, or within 5 minutes of the time it says it was
                credited).
              </p>,
              "h-40",
              credits,
              () => <Credits credits={credits} />,
            ),
          ]}
        />
      </div>
    </>
  );
}

function BalancesFrame({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="balances-heading">
      <h2 id="balances-heading" className="mb-3 text-lg font-semibold text-slate-900">
        Balances
      </h2>
      {children}
    </section>
  );
}

/**
 * A card of the page as a step: its heading (and `intro`) at once, then its body, or a skeleton
 * of `height` while `ready` (the body's data) is awaited.
 */
function card(
  key: string,
  title: string,
  intro: ReactNode,
  height: string,
  ready: Promise<unknown>,
  body: () => ReactNode,
): Step {
  const frame = (inner: ReactNode) => (
    <Card>
      <h2 className={`${intro ? "" : "mb-3 "}text-lg font-semibold text-slate-900`}>{title}</h2>
      {intro}
      {inner}
    </Card>
  );
  return {
    key,
    fallback: frame(<Skeleton className={height} label={`Loading ${title.toLowerCase()}…`} />),
    ready,
    content: frame(body()),
  };
}

async function Balances({ overview }: { overview: Promise<Settled<WalletOverview>> }) {
  const result = await overview;
  if (!result.ok) return <SectionError what="The balances could not be read" error={result.error} testId="balances-error" />;
  return <BalanceCards overview={result.value} />;
}

/** The chart's currency (the one asked for, else USD, else the first held) and its history, once the balances are read. */
async function loadChart(actor: Actor, overview: Settled<WalletOverview>, requested?: string) {
  if (!overview.ok) return overview;
  const currencies = overview.value.balances.map((b) => b.currency);
  if (currencies.length === 0) return { ok: true as const, value: null };
  const currency = requested && currencies.includes(requested) ? requested : currencies.includes("USD") ? "USD" : currencies[0]!;
  const history = await getBalanceHistory(actor, { currency }, { readAt: overview.value.readAt, items: overview.value.balances });
  const threshold = overview.value.balances.find((b) => b.currency === currency)?.thresholdMinor ?? null;
  return { ok: true as const, value: { currencies, currency, history, threshold } };
}

async function Chart({ chart, deposits }: { chart: ReturnType<typeof loadChart>; deposits?: string }) {
  const result = await chart;
  if (!result.ok)
    return <SectionError what="The chart needs the current balance, which could not be read" error={result.error} />;
  if (result.value === null) return <p className="text-sm text-slate-600">Nothing to chart yet: the wallet holds no currency.</p>;
  const { currencies, currency, history, threshold } = result.value;
  return (
    <>
      {currencies.length > 1 ? (
        <nav aria-label="Currency of the chart" className="mb-3 flex gap-2 text-sm">
          {currencies.map((c) => {
            const query = new URLSearchParams({ chart: c, ...(deposits ? { deposits } : {}) });
            return (
              <Link
                key={c}
                href={`/wallet?${query}`}
                aria-current={c === currency ? "true" : undefined}
                scroll={false}
                className={`rounded-md px-2.5 py-1 font-medium ${c === currency ? "bg-brand-600 text-white" : "text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"}`}
              >
                {c}
              </Link>
            );
          })}
        </nav>
      ) : null}
      <BalanceChart history={history} thresholdMinor={threshold} />
    </>
  );
}

async function Address({ actor, address }: { actor: Actor; address: Promise<Settled<DepositAddressView | null>> }) {
  const result = await address;
  if (!result.ok) return <SectionError what="The deposit address could not be read" error={result.error} />;
  return <DepositAddressPanel address={result.value} canRequest={can(actor.roles, "wallet.deposit-address")} />;
}

async function Deposits({
  deposits,
  cursor,
  chart,
}: {
  deposits: Promise<Settled<DepositPageView>>;
  cursor?: string;
  chart?: string;
}) {
  const result = await deposits;
  if (!result.ok)
    return <SectionError what="The deposit history could not be read" error={result.error} testId="deposits-error" />;
  const page = result.value;
  const link = (c?: string) => `/wallet?${new URLSearchParams({ ...(chart ? { chart } : {}), ...(c ? { deposits: c } : {}) })}`;
  return (
    <>
      <DepositsTable
        items={page.items}
        emptyText={cursor ? "No older deposits." : "No deposits yet. Deposits to the address above appear here once confirmed."}
      />
      <Pager
        name={{ label: "Pages of deposits" }}
        links={{
          newer: cursor ? { href: link(), text: "Back to newest" } : null,
          older: page.nextCursor ? { href: link(page.nextCursor), text: "Older deposits →", testId: "deposits-older" } : null,
        }}
        note={<span className="text-xs text-slate-500">Read at {utcTime(page.readAt, "second")}</span>}
      />
    </>
  );
}

async function Credits({ credits }: { credits: Promise<Settled<Awaited<ReturnType<typeof listCredits>>>> }) {
  const result = await credits;
  if (!result.ok) return <SectionError what="The credits could not be matched" error={result.error} />;
  return <CreditsTable items={result.value.items} />;
}

function SectionError({ what, error, testId }: { what: string; error: unknown; testId?: string }) {
  // Refused for a while (the person's share of the upstream's minute): the section counts down and reads again.
  if (isRateLimited(error)) return <RetryLater error={error} title={`${what} yet`} testId={testId} />;
  const known = isAppError(error);
  if (!known)
    logger.error("wallet page section failed", { section: what, error: error instanceof Error ? error.message : String(error) });
  return (
    <Notice tone="error" title={what} correlationId={known ? error.correlationId : undefined} testId={testId}>
      {known
        ? error.message
        : "Something went wrong on our side. Reload the page; if it keeps happening, tell support the time it happened."}
    </Notice>
  );
}

function Skeleton({ testId, label, className = "h-40" }: { testId?: string; label: string; className?: string }): ReactNode {
  return (
    <Busy label={label} testId={testId}>
      <Bone className={className} />
    </Busy>
  );
}
