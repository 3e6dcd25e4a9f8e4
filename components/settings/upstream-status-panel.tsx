import type { UpstreamStatus } from "@/lib/overview/upstream-status";
import { Card } from "@/components/ui/page-header";
import { utcTime } from "@/components/ui/utc-time";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-4 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="col-span-2 text-slate-900">{children}</dd>
    </div>
  );
}

export function UpstreamStatusPanel({ status }: { status: UpstreamStatus }) {
  const percent = Math.round((status.budget.used / status.budget.limit) * 100);
  return (
    <Card>
      <h2 className="text-base font-semibold">Issuing Service connection</h2>
      <p className="mt-1 text-sm text-slate-600">Read live from this app instance.</p>
      <dl className="mt-3 divide-y divide-slate-100" data-testid="upstream-status">
        <Row label="Base URL">
          <span className="break-all font-mono">{status.baseUrl}</span>
        </Row>
        <Row label="Requests this minute">
          {status.budget.used} of {status.budget.limit} ({percent}%) · reads may use up to {status.budget.interactiveCap},
          background work up to {status.budget.backgroundCap}; the rest, up to {status.budget.moneyCap}, is kept for orders,
          reveals and withdrawals
        </Row>
        <Row label="Read cache">
          {Math.round(status.cache.hitRate * 100)}% served without an upstream call ({status.cache.hits} hits,{" "}
          {status.cache.coalesced} shared, {status.cache.misses} calls)
        </Row>
        <Row label="Webhook secrets">
          {status.webhookSecrets === 0 ? "none configured — webhooks are refused" : `${status.webhookSecrets} configured`}
        </Row>
        <Row label="Last upstream error">
          {status.lastError ? (
            <span>
              {utcTime(new Date(status.lastError.at), "second")} · {status.lastError.status || "no answer"}{" "}
              {status.lastError.code} on <span className="break-all">{status.lastError.path}</span>
              {status.lastError.correlationId ? (
                <span className="block break-all font-mono text-xs text-slate-500">
                  correlationId {status.lastError.correlationId}
                </span>
              ) : null}
            </span>
          ) : (
            "none since this app started"
          )}
        </Row>
      </dl>
    </Card>
  );
}
