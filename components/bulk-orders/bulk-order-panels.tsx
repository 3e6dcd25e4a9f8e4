"use client";

import { useState } from "react";
import { Link } from "@/components/ui/link";
import type { BulkOrderView } from "@/lib/bulk-orders/bulk-view";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { BulkFunds } from "./bulk-funds";
import { BulkProgressBar } from "./bulk-progress-bar";
import { formatTotals, plural, utcMinute } from "./bulk-format";
import { BulkOutcome } from "./bulk-outcome";
import { needsAttention, outcomeCounts } from "@/lib/bulk-orders/bulk-outcome";

type Busy = "confirm" | "cancel" | null;

/** The preview's verdict and the one confirmation, with the total restated on the button. */
export function ConfirmPanel({
  view,
  busy,
  onConfirm,
  onDiscard,
}: {
  view: BulkOrderView;
  busy: Busy;
  onConfirm: () => void;
  onDiscard: () => void;
}) {
  const [discarding, setDiscarding] = useState(false);
  const invalid = view.rowCount - view.validCount;
  const total = formatTotals(view.totals);
  return (
    <Card>
      <div className="flex items-start justify-between gap-6">
        <dl className="grid min-w-0 flex-1 grid-cols-3 gap-6 text-sm">
          <Stat label="Rows in the file" value={view.rowCount} />
          <Stat label="Ready to order" value={view.validCount} tone="text-emerald-700" testId="bulk-valid-count" />
          <Stat label="With errors (skipped)" value={invalid} tone={invalid ? "text-red-700" : undefined} />
        </dl>
        <div className="shrink-0 text-right">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Priced total</p>
          <p className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="bulk-total">
            {total}
          </p>
        </div>
      </div>
      {view.validCount === 0 ? (
        <div className="mt-4">
          <Notice tone="warning" title="No row can be ordered">
            Fix the rows shown below and{" "}
            <Link href="/orders/bulk" className="font-medium underline">
              upload the file again
            </Link>
            .
          </Notice>
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600">
          Each order is placed at most at the price shown: if a price has risen by then, that row fails and nothing is bought for
          it.
          {invalid ? ` Rows with errors are skipped; fix them and upload them again as a new file.` : ""} This preview can be
          confirmed until {utcMinute(view.previewExpiresAt)}.
        </p>
      )}
      {view.isOwner && view.validCount > 0 ? <BulkFunds totals={view.totals} /> : null}
      {view.isOwner ? (
        <div className="mt-5 flex flex-wrap gap-3">
          {view.validCount > 0 ? (
            <Button onClick={onConfirm} disabled={busy !== null} data-testid="bulk-confirm">
              {busy === "confirm" ? "Confirming…" : `Place ${plural(view.validCount, "order")} for ${total}`}
            </Button>
          ) : null}
          <Button
            variant="secondary"
            onClick={() => setDiscarding(true)}
            disabled={busy !== null || discarding}
            data-testid="bulk-discard"
          >
            {busy === "cancel" ? "Discarding…" : "Discard this preview"}
          </Button>
        </div>
      ) : null}
      {view.isOwner && discarding ? (
        <div
          role="alertdialog"
          aria-label="Discard this preview?"
          className="mt-4 rounded-md bg-amber-50 p-4 ring-1 ring-amber-200"
          data-testid="bulk-discard-confirm"
        >
          <p className="text-sm font-medium text-amber-900">Discard this preview?</p>
          <p className="mt-1 text-sm text-amber-900">Nothing is ordered; to order these rows later, upload the file again.</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="danger" onClick={onDiscard} disabled={busy !== null}>
              Discard the preview
            </Button>
            <Button variant="secondary" onClick={() => setDiscarding(false)} autoFocus>
              Keep it
            </Button>
          </div>
        </div>
      ) : null}
      {view.isOwner ? null : (
        <p className="mt-4 text-sm text-slate-500">Only the person who uploaded this file can confirm it.</p>
      )}
    </Card>
  );
}

const HEADLINES: Record<string, string> = {
  confirmed: "Queued: placing starts in a moment.",
  running: "Placing the orders…",
  cancelled: "Cancelled: rows not yet sent were stopped.",
};

/** A finished run says what was delivered, not only that every row was sent. */
function doneHeadline(view: BulkOrderView): string {
  const counts = outcomeCounts(view);
  const count = (o: string) => counts.find((c) => c.outcome === o)?.count ?? 0;
  const problems = view.rows.filter(needsAttention).filter((r) => !r.errors).length;
  if (problems > 0 && view.ordersOpen > 0)
    return `${plural(problems, "failure")} so far and ${plural(view.ordersOpen, "order")} still on the way: see the rows needing attention.`;
  if (problems > 0) return `Finished with ${plural(problems, "failure")}: see the rows needing attention.`;
  const open = count("in_progress") + count("unknown");
  if (open > 0) return `Every row was placed; ${plural(open, "order")} still on the way to fulfilled.`;
  return "Finished: every order was fulfilled.";
}

/** Progress of a confirmed bulk order; the page can be left and this picks up from the server. */
export function ProgressPanel({ view, busy, onStop }: { view: BulkOrderView; busy: Busy; onStop: () => void }) {
  const active = view.state === "confirmed" || view.state === "running";
  if (!view.confirmedAt) {
    return (
      <Card>
        <p className="font-medium text-slate-900" data-testid="bulk-headline">
          This preview was discarded; nothing was ordered.
        </p>
        <p className="mt-1 text-sm text-slate-600">
          <Link href="/orders/bulk" className="font-medium text-brand-600 hover:underline">
            Upload a file
          </Link>{" "}
          to start again.
        </p>
      </Card>
    );
  }
  return (
    <Card>
      <div className="mb-4 flex items-start justify-between gap-6">
        <div className="min-w-0 flex-1">
          <p className="font-medium text-slate-900" data-testid="bulk-headline">
            {view.state === "done" ? doneHeadline(view) : (HEADLINES[view.state] ?? view.state)}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {active
              ? "The orders are placed in the background, within the shared request budget, after people ordering by hand. You can close this page and come back."
              : `Confirmed ${utcMinute(view.confirmedAt)}${view.finishedAt ? `, ${view.ordersOpen > 0 ? "every row sent" : "finished"} ${utcMinute(view.finishedAt)}` : ""}.${view.ordersOpen > 0 ? " This page follows the orders until each has finished." : ""}`}
          </p>
        </div>
        <div className="shrink-0 text-right">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Confirmed total</p>
          <p className="text-xl font-semibold tabular-nums text-slate-900" data-testid="bulk-total">
            {formatTotals(view.totals)}
          </p>
        </div>
      </div>
      <BulkProgressBar progress={view.progress} />
      <BulkOutcome view={view} />
      {active && view.isOwner ? (
        <div className="mt-4">
          <Button variant="secondary" onClick={onStop} disabled={busy !== null} data-testid="bulk-stop">
            {busy === "cancel" ? "Stopping…" : "Stop the rows not yet sent"}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

function Stat({ label, value, tone, testId }: { label: string; value: number; tone?: string; testId?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className={`mt-1 text-2xl font-semibold tabular-nums ${tone ?? "text-slate-900"}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
