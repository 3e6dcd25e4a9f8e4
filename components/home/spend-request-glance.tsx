import { Link } from "@/components/ui/link";
import { StatusPill, type PillTone } from "@/components/ui/status-pill";
import { utcTime } from "@/components/ui/utc-time";
import type { BuyerSpendRequests } from "@/lib/overview/buyer-spend-requests";
import type { SpendState } from "@/lib/spend/states";
import { elapsedText } from "./elapsed";
import { HomeBlock } from "./home-block";
import { HomeFigure } from "./home-figure";

const TONES: Partial<Record<SpendState, PillTone>> = {
  awaiting: "attention",
  rejected: "danger",
  expired: "neutral",
  failed: "refused",
};
const ENDED_WORD: Partial<Record<SpendState, string>> = { rejected: "Rejected", expired: "Expired", failed: "Refused upstream" };

/** The buyer's own spend requests on their home: what waits for an approver, and what ended without an order this week. */
export function SpendRequestGlance({ requests, now }: { requests: BuyerSpendRequests; now: Date }) {
  return (
    <HomeBlock title="Waiting for approval" href="/spend-approvals" linkLabel="All your requests" testId="home-spend-requests">
      <HomeFigure value={requests.waiting} testId="home-spend-waiting-count">
        {requests.waiting === 1 ? "request" : "requests"} of yours waiting for an approver
        {requests.waiting > 0 ? ` (${requests.waitingTotal}). Nothing is bought until one approves.` : "."}
      </HomeFigure>
      {requests.items.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="home-spend-requests-empty">
          No order of yours is waiting, and none was rejected this week. Orders above the approval threshold or past your limits
          wait here.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Your spend requests, newest first" data-testid="home-spend-list">
          {requests.items.map((r) => (
            <li key={r.id} className="py-2 text-sm" data-id={r.id} data-state={r.state}>
              <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                <span className="min-w-0">
                  <Link
                    href={`/spend-approvals#${encodeURIComponent(r.id)}`}
                    className="break-all font-medium text-brand-700 hover:underline"
                  >
                    {r.title}
                  </Link>{" "}
                  <span className="tabular-nums text-slate-700">· {r.total}</span>
                </span>
                <StatusPill status={r.state} label={r.stateLabel} tone={TONES[r.state]} dataAttribute="data-state" />
              </div>
              <p className="text-xs text-slate-600">
                {r.endedAt === null ? (
                  <>
                    Asked {elapsedText(now.getTime() - Date.parse(r.requestedAt))} ago · expires {utcTime(r.expiresAt)}
                  </>
                ) : (
                  <>
                    {ENDED_WORD[r.state] ?? r.stateLabel} at {utcTime(r.endedAt)}
                    {r.comment ? `: “${r.comment}”` : ""}. Nothing was bought.
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </HomeBlock>
  );
}
