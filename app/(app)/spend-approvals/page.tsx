import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { listSpendRequests } from "@/lib/spend/list-spend-requests";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { SpendRequestCard } from "@/components/spend/spend-request-card";
import { BackgroundWorkNotice } from "@/components/health/background-work-notice";
import { backgroundWork } from "@/lib/jobs/background-work";
import { markWaitingForWorker } from "@/lib/spend/waiting-for-worker";

export const metadata: Metadata = { title: "Spend approvals" };

/** Orders and bulk files waiting for a second person's yes (waiting ones first), and their history. */
export default async function SpendApprovalsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { actor } = await requirePageSession("spend.read");
  const [requests, work] = await Promise.all([listSpendRequests(actor), backgroundWork()]);
  const submitted = (await searchParams).submitted;
  return (
    <>
      <PageHeader
        title="Spend approvals"
        description="Orders above the approval threshold, or past a buyer's limit, wait here. Another person with the approver role approves or rejects them; the buyer who asked never can."
      />
      <BackgroundWorkNotice work={work} admin={actor.roles.includes("admin")} />
      {submitted ? (
        <Notice className="mb-4" tone="success" testId="submitted-for-approval">
          Your order was sent for approval. Nothing has been bought yet; it is placed once another person approves it.
        </Notice>
      ) : null}
      {requests.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-spend-requests">
          Nothing is waiting for approval, and no order has needed one yet.
        </p>
      ) : (
        <div className="space-y-3">
          {requests.map((r) => (
            <SpendRequestCard key={r.id} request={markWaitingForWorker(r, work)} />
          ))}
        </div>
      )}
    </>
  );
}
