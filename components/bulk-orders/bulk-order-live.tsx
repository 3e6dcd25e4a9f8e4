"use client";

import { Link } from "@/components/ui/link";
import { approvalReasonsFor, NeedsApproval } from "@/components/ordering/spend-notice";
import { approvalWhy as approvalWhyOf } from "@/lib/spend/approval-reasons";
import type { RemainingSpend } from "@/lib/spend/get-remaining-spend";
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi, type ApiProblem } from "@/components/api-client";
import { useApiMutation } from "@/components/use-api-mutation";
import { Notice, RefusalNotice } from "@/components/ui/notice";
import type { BulkOrderView } from "@/lib/bulk-orders/bulk-view";
import { BulkRowsTable } from "./bulk-rows-table";
import { bulkPhase } from "@/lib/bulk-orders/states";
import { BulkStateBadge } from "./bulk-state-badge";
import { ConfirmPanel, ProgressPanel } from "./bulk-order-panels";

class ProblemError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.detail);
  }
}

async function fetchBulkOrder(id: string): Promise<BulkOrderView> {
  const result = await callApi<BulkOrderView>("GET", `/api/bulk-orders/${encodeURIComponent(id)}`);
  if (!result.ok) throw new ProblemError(result.problem);
  return result.data;
}

/** Fast while rows are being placed; gently while placed orders are still on their way to fulfilled. */
function pollEvery(view: BulkOrderView): number | false {
  if (view.state === "confirmed" || view.state === "running" || view.progress.placing > 0) return 1_500;
  if (view.ordersOpen > 0) return 5_000;
  return false;
}

/**
 * A bulk order, live: the server-rendered state first, then TanStack Query polling this
 * app's route handler while work is under way. Nothing lives only in the browser, so
 * leaving and coming back shows exactly where the job is.
 */
export function BulkOrderLive({ initial, spend = [] }: { initial: BulkOrderView; spend?: RemainingSpend[] }) {
  const queryClient = useQueryClient();
  const queryKey = ["bulk-order", initial.id];
  const query = useQuery({
    queryKey,
    queryFn: () => fetchBulkOrder(initial.id),
    initialData: initial,
    refetchInterval: (q) => pollEvery(q.state.data ?? initial),
  });
  const view = query.data;
  const [approvalReason, setApprovalReason] = useState("");
  const step = useApiMutation<BulkOrderView, "confirm" | "cancel">(
    (action) => ({
      method: "POST",
      url: `/api/bulk-orders/${encodeURIComponent(view.id)}/${action}`,
      body: action === "confirm" && approvalReason.trim() ? { approvalReason: approvalReason.trim() } : {},
    }),
    { onSuccess: (next) => queryClient.setQueryData(queryKey, next) },
  );
  const problem = step.problem;
  const busy = step.pending ? (step.variables ?? null) : null;
  const act = (action: "confirm" | "cancel") => step.send(action);
  // The file counts as one spend per currency: said before confirming (the server decides again).
  const reasons =
    view.state === "draft"
      ? view.totals.flatMap((t) => approvalReasonsFor(spend.find((s) => s.currency === t.currency) ?? null, BigInt(t.totalMinor)))
      : [];
  const approvalWhy = reasons.length > 0 ? approvalWhyOf(reasons) : null;
  // A reason once typed stays in view while it is sent (a new attempt clears the last problem).
  const askReason =
    view.state === "draft" &&
    view.isOwner &&
    (approvalWhy !== null || problem?.code === "approval_required" || approvalReason !== "");

  const refreshProblem = query.error instanceof ProblemError ? query.error.problem : null;
  return (
    <div className="space-y-6">
      <p className="flex items-center gap-2 text-sm text-slate-600">
        State <BulkStateBadge state={bulkPhase(view.state, view.ordersOpen)} />
      </p>
      {problem ? <RefusalNotice problem={problem} testId="bulk-problem" /> : null}
      {query.isError ? (
        <Notice tone="warning" title="Could not refresh the progress" correlationId={refreshProblem?.correlationId}>
          {refreshProblem?.detail ?? "The server could not be reached."} Showing the last known state; trying again.
        </Notice>
      ) : null}
      {askReason ? (
        <NeedsApproval
          what={`This file needs approval${approvalWhy ? ` because ${approvalWhy}` : ""}. Confirming sends it to an approver as a whole; nothing is placed until another person agrees.`}
          reason={approvalReason}
          onReason={setApprovalReason}
          error={problem?.errors?.approvalReason}
        />
      ) : null}
      {view.state === "awaiting_approval" ? (
        <Notice tone="info" title="Waiting for an approver" testId="bulk-awaiting-approval">
          Nothing has been placed. Another person with the approver role decides on{" "}
          <Link className="font-medium underline" href="/spend-approvals">
            Spend approvals
          </Link>
          ; once approved, every valid row is placed.
        </Notice>
      ) : view.state === "draft" ? (
        <ConfirmPanel view={view} busy={busy} onConfirm={() => act("confirm")} onDiscard={() => act("cancel")} />
      ) : (
        <ProgressPanel view={view} busy={busy} onStop={() => act("cancel")} />
      )}
      <BulkRowsTable view={view} />
    </div>
  );
}
