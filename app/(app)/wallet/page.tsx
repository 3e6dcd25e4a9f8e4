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
import { getDepositAddress } from "@/lib/wallet/deposit-address";
import { depositCursorSchema, listDeposits } from "@/lib/wallet/list-deposits";
import { listCredits } from "@/lib/wallet/list-credits";
import { PageHeader, Card } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { BalanceCards } from "@/components/wallet/balance-cards";
import { BalanceChart } from "@/components/wallet/balance-chart";
import { DepositAddressPanel } from "@/components/wallet/deposit-address-panel";
import { DepositsTable } from "@/components/wallet/deposits-table";
import { CreditsTable } from "@/components/wallet/credits-table";
import { ReconciliationNotice } from "@/components/reconciliation/reconciliation-notice";
import { utcTime } from "@/components/ui/utc-time";
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
  // One balance read serves the cards and the chart's anchor.
  const overview = settle(getWalletOverview(actor));

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
      <div className="space-y-6">
        <ReconciliationNotice />
        {/* Each section streams in, top to bottom (components/ui/reveal-in-order.tsx): one above
            that arrives later never pushes down one already on screen. */}
        <RevealInOrder
          steps={[
            {
              key: "balances",
              fallback: <BalancesFrame>{<Skeleton testId="balances-loading" label="Loading the balances…" />}</BalancesFrame>,
              content: (
                <BalancesFrame>
                  <Balances overview={overview} />
                </BalancesFrame>
              ),
            },
            card("chart", "Available balance, last 30 days", null, "h-72", () => (
              <Chart actor={actor} overview={overview} requested={chartParam} deposits={cursor} />
            )),
            card("address", "Deposit address", null, "h-40", () => <Address actor={actor} />),
            card(`deposits:${cursor ?? ""}`, "Deposit history", null, "h-40", () => (
              <>
                {cursorParam && !cursor ? (
                  <div className="mb-3">
                    <Notice tone="warning">That page position was not valid; showing the newest deposits.</Notice>
                  </div>
                ) : null}
                <Deposits actor={actor} cursor={cursor} chart={chartParam} />
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
              () => <Credits actor={actor} />,
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

/** A card of the page as a step: its heading (and `intro`) at once, then its body or a skeleton of `height`. */
function card(key: string, title: string, intro: ReactNode, height: string, body: () => ReactNode): Step {
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
    content: frame(body()),
  };
}

async function Balances({ overview }: { overview: Promise<Settled<WalletOverview>> }) {
  const result = await overview;
  if (!result.ok) return <SectionError what="The balances could not be read" error={result.error} testId="balances-error" />;
  return <BalanceCards overview={result.value} />;
}

async function Chart({
  actor,
  overview,
  requested,
  deposits,
}: {
  actor: Actor;
  overview: Promise<Settled<WalletOverview>>;
  requested?: string;
  deposits?: string;
}) {
  const result = await overview;
  if (!result.ok)
    return <SectionError what="The chart needs the current balance, which could not be read" error={result.error} />;
  const currencies = result.value.balances.map((b) => b.currency);
  if (currencies.length === 0)
    return <p className="text-sm text-slate-600">Nothing to chart yet: the wallet holds no currency.</p>;
  const currency = requested && currencies.includes(requested) ? requested : currencies.includes("USD") ? "USD" : currencies[0]!;
  const history = await getBalanceHistory(actor, { currency }, { readAt: result.value.readAt, items: result.value.balances });
  const threshold = result.value.balances.find((b) => b.currency === currency)?.thresholdMinor ?? null;
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

async function Address({ actor }: { actor: Actor }) {
  const result = await settle(getDepositAddress(actor));
  if (!result.ok) return <SectionError what="The deposit address could not be read" error={result.error} />;
  return <DepositAddressPanel address={result.value} canRequest={can(actor.roles, "wallet.deposit-address")} />;
}

async function Deposits({ actor, cursor, chart }: { actor: Actor; cursor?: string; chart?: string }) {
  const result = await settle(listDeposits(actor, { cursor, limit: DEPOSIT_PAGE }));
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

async function Credits({ actor }: { actor: Actor }) {
  const result = await settle(listCredits(actor, { limit: 20 }));
  if (!result.ok) return <SectionError what="The credits could not be matched" error={result.error} />;
  return <CreditsTable items={result.value.items} />;
}

function SectionError({ what, error, testId }: { what: string; error: unknown; testId?: string }) {
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
