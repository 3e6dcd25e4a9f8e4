import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { getSettings } from "@/lib/settings/get-settings";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { withdrawalApprovalFacts } from "@/lib/withdrawals/withdrawal-approval-facts";
import { withdrawalListQuerySchema } from "@/lib/withdrawals/schemas";
import { Card, PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { BackgroundWorkNotice } from "@/components/health/background-work-notice";
import { backgroundWork } from "@/lib/jobs/background-work";
import { markWaitingForWorker } from "@/lib/withdrawals/waiting-for-worker";
import { WithdrawalCard } from "@/components/withdrawals/withdrawal-card";
import { WithdrawalRequestForm } from "@/components/withdrawals/withdrawal-request-form";
import { RefreshWhileSending } from "@/components/withdrawals/refresh-while-sending";
import { Pager, countText } from "@/components/ui/pager";
import { pickParams, type SearchParams } from "@/components/ui/search-params";

export const metadata: Metadata = { title: "Withdrawals" };

const FILTERS = [
  { state: undefined, label: "All" },
  { state: "open", label: "In progress" },
  { state: "pending", label: "Awaiting approval" },
  { state: "requested", label: "Requested upstream" },
  { state: "paid", label: "Paid" },
  { state: "rejected", label: "Rejected" },
  { state: "expired", label: "Expired" },
  { state: "cancelled", label: "Cancelled" },
  { state: "failed", label: "Refused upstream" },
] as const;

export default async function WithdrawalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("withdrawals.read");
  const raw = await searchParams;
  const parsed = withdrawalListQuerySchema.safeParse(pickParams(raw, ["state", "page"]));
  const query = parsed.success ? parsed.data : { page: 1 };
  const [list, work] = await Promise.all([listWithdrawals(actor, query), backgroundWork()]);
  const items = list.items.map((w) => markWaitingForWorker(w, work));
  const facts = await withdrawalApprovalFacts(actor, items);
  const canRequest = can(actor.roles, "withdrawals.request");
  const canApprove = can(actor.roles, "withdrawals.approve");
  // USD first: deposits arrive as BSC-USD, so that is where most of the wallet is.
  const currencies = Object.keys((await getSettings()).lowBalance).sort(
    (a, b) => Number(b === "USD") - Number(a === "USD") || a.localeCompare(b),
  );
  const state = parsed.success ? parsed.data.state : undefined;
  const href = (s: string | undefined, page = 1) => {
    const q = new URLSearchParams();
    if (s) q.set("state", s);
    if (page > 1) q.set("page", String(page));
    const text = q.toString();
    return text ? `/withdrawals?${text}` : "/withdrawals";
  };

  return (
    <>
      <PageHeader
        title="Withdrawals"
        description="Payouts of unused wallet funds to the payout details registered with the Issuing Service. Finance requests; another person with the approver role approves; only then is it sent."
      />
      <BackgroundWorkNotice work={work} admin={actor.roles.includes("admin")} />
      <RefreshWhileSending active={items.some((w) => w.state === "approved" || w.state === "sending")} />
      {!parsed.success ? (
        <Notice tone="warning">The filter in the address was not valid, so all withdrawals are shown.</Notice>
      ) : null}
      {canApprove && list.awaitingApproval > 0 ? (
        <Notice className="mb-4" tone="info" testId="awaiting-approval">
          {list.awaitingApproval === 1 ? "1 request is" : `${list.awaitingApproval} requests are`} awaiting approval.{" "}
          <Link className="font-medium underline" href={href("pending")}>
            Show them
          </Link>
        </Notice>
      ) : null}

      {canRequest ? (
        <Card className="mb-6">
          <h2 className="mb-3 text-base font-semibold text-slate-900">Request a withdrawal</h2>
          <WithdrawalRequestForm currencies={currencies} />
        </Card>
      ) : null}

      <nav aria-label="Filter by state" className="mb-4 flex flex-wrap gap-1.5">
        {FILTERS.map((f) => {
          const current = f.state === state;
          return (
            <Link
              key={f.label}
              href={href(f.state)}
              aria-current={current ? "page" : undefined}
              className={`rounded-full px-3 py-1 text-sm ring-1 ring-inset ${current ? "bg-brand-600 text-white ring-brand-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
            >
              {f.label}
            </Link>
          );
        })}
      </nav>

      {items.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200" data-testid="no-withdrawals">
          {state ? "No withdrawals in this state." : "No withdrawals yet."}
        </p>
      ) : (
        <div className="space-y-4">
          {items.map((w) => (
            <WithdrawalCard
              key={w.id}
              withdrawal={w}
              canApprove={canApprove}
              facts={facts ? { payoutName: facts.payoutName, balance: facts.balances[w.id] ?? null } : null}
            />
          ))}
        </div>
      )}

      <Pager
        name={{ label: "Pages", testId: "withdrawals-total" }}
        links={{
          newer: list.page > 1 ? { href: href(state, list.page - 1), text: "Newer" } : null,
          older: list.page < list.pageCount ? { href: href(state, list.page + 1), text: "Older" } : null,
        }}
        total={
          list.total === 0
            ? null
            : list.pageCount > 1
              ? `Page ${list.page} of ${list.pageCount} (${list.total} requests)`
              : `${countText(list.total, ["request", "requests"])}.`
        }
      />
    </>
  );
}
