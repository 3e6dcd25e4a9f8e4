import type { Metadata } from "next";
import Link from "next/link";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { getSettings } from "@/lib/settings/get-settings";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { withdrawalListQuerySchema } from "@/lib/withdrawals/schemas";
import { Card, PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { WithdrawalCard } from "@/components/withdrawals/withdrawal-card";
import { WithdrawalRequestForm } from "@/components/withdrawals/withdrawal-request-form";
import { RefreshWhileSending } from "@/components/withdrawals/refresh-while-sending";

export const metadata: Metadata = { title: "Withdrawals" };

type Search = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

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

export default async function WithdrawalsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { actor } = await requirePageSession("withdrawals.read");
  const raw = await searchParams;
  const parsed = withdrawalListQuerySchema.safeParse({ state: first(raw.state), page: first(raw.page) });
  const query = parsed.success ? parsed.data : { page: 1 };
  const list = await listWithdrawals(actor, query);
  const canRequest = can(actor.roles, "withdrawals.request");
  const canApprove = can(actor.roles, "withdrawals.approve");
  // USD first: deposits arrive as BSC-USD, so that is where most of the wallet is.
  const currencies = Object.keys((await getSettings()).lowBalance).sort((a, b) => Number(b === "USD") - Number(a === "USD") || a.localeCompare(b));
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
      <RefreshWhileSending active={list.items.some((w) => w.state === "approved" || w.state === "sending")} />
      {!parsed.success ? <Notice tone="warning">The filter in the address was not valid, so all withdrawals are shown.</Notice> : null}
      {canApprove && list.awaitingApproval > 0 ? (
        <div className="mb-4">
          <Notice tone="info" testId="awaiting-approval">
            {list.awaitingApproval === 1 ? "1 request is" : `${list.awaitingApproval} requests are`} awaiting approval.{" "}
            <Link className="font-medium underline" href={href("pending")}>
              Show them
            </Link>
          </Notice>
        </div>
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

      {list.items.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200" data-testid="no-withdrawals">
          {state ? "No withdrawals in this state." : "No withdrawals yet."}
        </p>
      ) : (
        <div className="space-y-4">
          {list.items.map((w) => (
            <WithdrawalCard key={w.id} withdrawal={w} canApprove={canApprove} />
          ))}
        </div>
      )}

      {list.pageCount > 1 ? (
        <nav aria-label="Pages" className="mt-6 flex items-center gap-3 text-sm">
          {list.page > 1 ? <Link className="underline" href={href(state, list.page - 1)}>Newer</Link> : null}
          <span className="text-slate-600">
            Page {list.page} of {list.pageCount} ({list.total} requests)
          </span>
          {list.page < list.pageCount ? <Link className="underline" href={href(state, list.page + 1)}>Older</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
