import { Card } from "@/components/ui/page-header";
import { utcTime } from "@/components/ui/utc-time";
import { money } from "@/components/withdrawals/format";
import type { MoneyAmount, SpendRequestView } from "@/lib/spend/spend-request-view";
import { SpendActions } from "./spend-actions";
import { SpendFacts } from "./spend-facts";
import { BulkLines, OrderLines } from "./spend-lines";

const totals = (list: MoneyAmount[]) => list.map((t) => money(t.total, t.currency)).join(" + ");

/** What a request buys, in a few words: "the order of 2 × Amazon US $25", "the bulk file cards.csv". */
function bought(request: SpendRequestView): string {
  if (request.kind === "bulk") return `the bulk file${request.bulk?.fileName ? ` ${request.bulk.fileName}` : ""}`;
  const lines = request.lines.map((l) => `${l.quantity}\u00a0× ${l.productName ?? l.productId}${l.option ? ` ${l.option}` : ""}`);
  return lines.length > 0 ? `the order of ${lines.join(", ")}` : `the order ${request.clientReference ?? ""}`.trim();
}

/**
 * One spend approval request: what it buys (the lines, or a bulk file's rows by product), who
 * asked, why, how much (old and new totals after a price rise), what the approver weighs (the
 * buyer's spend against their limits, the wallet after it), and the approver's buttons.
 */
export function SpendRequestCard({ request, now = new Date() }: { request: SpendRequestView; now?: Date }) {
  const what = request.kind === "bulk" ? "this file" : "this order";
  const title =
    request.kind === "bulk"
      ? `Bulk file${request.bulk?.fileName ? ` ${request.bulk.fileName}` : ""}`
      : `Order ${request.clientReference ?? ""}`;
  // A name for the lines' table that no other card on the page has (a reference or file name may
  // repeat); it does not repeat the heading's words, which people and tests look the card up by.
  const name = `request ${request.id.slice(-8)}`;
  return (
    <Card className="space-y-2">
      <div id={request.id} data-testid={`spend-request-${request.id}`} className="scroll-mt-4 space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">
            {title} · {totals(request.totals)}
          </h2>
          <span className="text-sm font-medium text-slate-700" data-testid="spend-state">
            {request.stateLabel}
          </span>
        </div>
        {request.previousTotals ? (
          <p className="text-sm text-amber-800" data-testid="price-changed">
            The price rose after approval: {totals(request.previousTotals)} was approved, the order now costs{" "}
            {totals(request.totals)}. Nothing was bought.
          </p>
        ) : null}
        {request.priceNote ? (
          <p className="text-sm text-amber-800" data-testid="price-moved">
            {request.priceNote}
          </p>
        ) : null}
        {request.kind === "bulk" && request.bulkOrderId ? (
          <BulkLines
            bulk={request.bulk}
            rowsHref={request.rowsHref}
            fileHref={`/orders/bulk/${encodeURIComponent(request.bulkOrderId)}`}
            name={name}
          />
        ) : (
          <OrderLines lines={request.lines} now={now} waiting={request.state === "awaiting"} name={name} />
        )}
        {request.waitsForBackgroundWork ? (
          <p className="text-sm text-amber-800" data-testid="spend-waits">
            Waiting to be placed: background work is stopped. It is placed once, as soon as it runs again.
          </p>
        ) : null}
        {request.outcomeNote ? (
          <p className="text-sm text-slate-700" data-testid="spend-outcome">
            {request.outcomeNote}
          </p>
        ) : null}
        <dl className="grid gap-1 text-sm text-slate-700 sm:grid-cols-2">
          <div>
            <dt className="inline font-medium">Asked by </dt>
            <dd className="inline">{request.requestedBy.name}</dd>
          </div>
          <div>
            <dt className="inline font-medium">Reason </dt>
            <dd className="inline">{request.reason}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="inline font-medium">Needs approval because </dt>
            <dd className="inline" data-testid="spend-why">
              {request.why}.
            </dd>
          </div>
          {request.decidedBy ? (
            <div className="sm:col-span-2">
              <dt className="inline font-medium">Decided by </dt>
              <dd className="inline">
                {request.decidedBy.name}
                {request.comment ? ` — “${request.comment}”` : ""}
              </dd>
            </div>
          ) : null}
          {request.state === "awaiting" ? (
            <div>
              <dt className="inline font-medium">Expires </dt>
              <dd className="inline">{utcTime(request.expiresAt)}</dd>
            </div>
          ) : null}
          {request.orderId ? (
            <div>
              <dt className="inline font-medium">Order </dt>
              <dd className="inline">
                <a className="underline" href={`/orders/${encodeURIComponent(request.orderId)}`}>
                  {request.orderId}
                </a>
              </dd>
            </div>
          ) : null}
        </dl>
        {request.state === "awaiting" && request.own ? (
          <p className="text-sm text-slate-600" data-testid="own-request">
            You asked for this, so another approver must decide it.
          </p>
        ) : null}
        {request.facts ? <SpendFacts facts={request.facts} buyer={request.requestedBy.name} what={what} /> : null}
        {request.canDecide ? <SpendActions id={request.id} total={totals(request.totals)} bought={bought(request)} /> : null}
      </div>
    </Card>
  );
}
