"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/components/api-client";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { utcTime } from "@/components/ui/utc-time";
import type { ImportProgress } from "@/lib/orders/import-progress";

const URL_PATH = "/api/settings/order-import";
const STATE_LABELS: Record<ImportProgress["state"], string> = { running: "Importing", paused: "Paused", done: "Up to date" };

async function fetchProgress(): Promise<ImportProgress> {
  const result = await callApi<ImportProgress>("GET", URL_PATH);
  if (!result.ok) throw new Error(result.problem.detail);
  return result.data;
}

/**
 * Every order of the workspace: the history import's progress (polled while it runs) with
 * pause, resume and a full re-read, and the safety-net sync's last run.
 */
export function OrderImportPanel({ initial, canManage }: { initial: ImportProgress; canManage: boolean }) {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: ["order-import"],
    queryFn: fetchProgress,
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.state === "running" ? 3_000 : 30_000),
  });

  const control = useApiMutation<ImportProgress, "pause" | "resume" | "restart">(
    (action) => ({ method: "POST", url: URL_PATH, body: { action } }),
    { onSuccess: (progress) => queryClient.setQueryData(["order-import"], progress) },
  );
  const { pending: busy, problem } = control;
  const act = (action: "pause" | "resume" | "restart") => control.send(action);

  return (
    <Card>
      <h2 className="text-base font-semibold">Orders from the Issuing Service</h2>
      <p className="mt-1 text-sm text-slate-600">
        Every order of the workspace, including those a storefront placed through the API, is imported once in the background
        (never ahead of people in the request budget) and kept current by webhooks and a safety-net sync.
      </p>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2" data-testid="order-import" data-state={data.state}>
        <Item label="History import">
          <span data-testid="order-import-state">{STATE_LABELS[data.state]}</span>
          {data.finishedAt ? <span className="text-slate-500"> · finished {utcTime(data.finishedAt)}</span> : null}
        </Item>
        <Item label="Orders imported">
          <span data-testid="order-import-count">{data.ordersImported}</span> in {data.pagesRead} page
          {data.pagesRead === 1 ? "" : "s"} of {data.pageSize}
          {data.state === "done" ? null : (
            <span className="text-slate-500"> · more pages to read (the Issuing Service does not say how many)</span>
          )}
        </Item>
        <Item label="Calls this minute">
          {data.callsThisMinute} of at most {data.callsPerMinuteCap} a minute
        </Item>
        <Item label="Safety-net sync">
          every {data.sync.intervalSeconds} s
          {data.sync.lastRunAt
            ? ` · last ${utcTime(data.sync.lastRunAt, "second")}, ${data.sync.lastOrders} new or changed`
            : " · not run yet"}
        </Item>
        {data.lastError ? <Item label="Last problem">{data.lastError} (retried automatically)</Item> : null}
      </dl>
      {canManage ? (
        <div className="mt-4 flex flex-wrap gap-2">
          {data.state === "running" ? (
            <Button variant="secondary" disabled={busy} onClick={() => act("pause")} data-testid="order-import-pause">
              Pause import
            </Button>
          ) : null}
          {data.state === "paused" ? (
            <Button disabled={busy} onClick={() => act("resume")} data-testid="order-import-resume">
              Resume import
            </Button>
          ) : null}
          {data.state === "done" ? (
            <Button variant="secondary" disabled={busy} onClick={() => act("restart")} data-testid="order-import-restart">
              Read every order again
            </Button>
          ) : null}
        </div>
      ) : null}
      {problem ? (
        <div className="mt-3">
          <Notice tone="error" correlationId={problem.correlationId}>
            {problem.detail}
          </Notice>
        </div>
      ) : null}
    </Card>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}
