import { Link } from "@/components/ui/link";
import type { LiveSession } from "@/lib/auth/staff-session";
import { waitingDecisions, type WaitingDecision } from "@/lib/overview/waiting-decisions";
import { utcTime } from "@/components/ui/utc-time";
import { elapsedText } from "./elapsed";
import { HomeBlock, HomeSection } from "./home-block";
import { HomeFigure } from "./home-figure";

const KIND_LABELS: Record<WaitingDecision["kind"], string> = { withdrawal: "Withdrawal", spend: "Spend approval" };

/** Its reads, started by the home page (a section whose reads are quick comes with the page). */
export async function loadApproverHome({ actor }: LiveSession) {
  const now = new Date();
  return { now, waiting: await waitingDecisions(actor, now) };
}

/** The approver's home: what waits for their decision, oldest first, each a link to where it is decided. */
export async function ApproverHome({ data }: { data: ReturnType<typeof loadApproverHome> }) {
  const { now, waiting } = await data;
  const parts = [
    waiting.withdrawals ? `${waiting.withdrawals} withdrawal${waiting.withdrawals === 1 ? "" : "s"}` : null,
    waiting.spendRequests ? `${waiting.spendRequests} spend request${waiting.spendRequests === 1 ? "" : "s"}` : null,
  ].filter(Boolean);
  return (
    <HomeSection title="Approvals">
      <HomeBlock title="Waiting for your decision" testId="home-waiting-decisions" wide>
        {waiting.total === 0 ? (
          <p className="text-sm text-slate-600" data-testid="home-waiting-empty">
            Nothing waits for you. Requests other people make appear here, oldest first.
          </p>
        ) : (
          <>
            <HomeFigure value={waiting.total} testId="home-waiting-count">
              waiting: {parts.join(" and ")}.{" "}
              <Link href="/withdrawals?state=pending" className="font-medium text-brand-700 hover:underline">
                Withdrawals
              </Link>{" "}
              ·{" "}
              <Link href="/spend-approvals" className="font-medium text-brand-700 hover:underline">
                Spend approvals
              </Link>
            </HomeFigure>
            <ol className="divide-y divide-slate-100" aria-label="Oldest first">
              {waiting.items.map((item) => (
                <li
                  key={`${item.kind}-${item.id}`}
                  className="py-2.5 text-sm"
                  data-testid="home-waiting-item"
                  data-kind={item.kind}
                >
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <Link href={item.href} className="font-medium text-brand-700 hover:underline">
                      <span className="sr-only">{KIND_LABELS[item.kind]}: </span>
                      {item.title}
                    </Link>
                    <span className="text-slate-600" data-testid="home-waiting-age">
                      waiting {elapsedText(now.getTime() - Date.parse(item.requestedAt))}
                    </span>
                  </div>
                  <p className="text-xs text-slate-600">
                    {KIND_LABELS[item.kind]} asked by {item.requestedBy} at {utcTime(item.requestedAt)} · expires{" "}
                    <time dateTime={item.expiresAt}>{utcTime(item.expiresAt)}</time> (in{" "}
                    {elapsedText(Date.parse(item.expiresAt) - now.getTime())})
                  </p>
                </li>
              ))}
            </ol>
            {waiting.total > waiting.items.length ? (
              <p className="mt-2 text-xs text-slate-600">
                The {waiting.items.length} oldest of {waiting.total} are shown.
              </p>
            ) : null}
          </>
        )}
      </HomeBlock>
    </HomeSection>
  );
}
