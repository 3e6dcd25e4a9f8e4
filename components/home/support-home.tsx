import { Link } from "@/components/ui/link";
import type { LiveSession } from "@/lib/auth/staff-session";
import {
  ordersNeedingSupport,
  FAILED_WINDOW_HOURS,
  STUCK_AFTER_MINUTES,
  type OrdersNeedingSupport,
} from "@/lib/overview/orders-needing-support";
import { recentReveals } from "@/lib/overview/recent-reveals";
import { recentQuotaAlerts } from "@/lib/reveal/quota-alerts";
import { REVEAL_STATE_LABELS, type RevealState } from "@/lib/reveal/reveal-states";
import { StatusPill, type PillTone } from "@/components/ui/status-pill";
import { Notice } from "@/components/ui/notice";
import { utcTime } from "@/components/ui/utc-time";
import { HomeBlock, HomeSection } from "./home-block";
import { HomeFigure } from "./home-figure";
import { OrderGlanceList } from "./order-glance-list";

/** "Asked, no answer recorded" is the one to look into: the upstream may have served it. */
const REVEAL_TONES: Record<RevealState, PillTone> = { succeeded: "success", failed: "danger", started: "attention" };

/** Support's two lists of orders: stuck ones (oldest first) and failed ones (newest first). */
function orderBlocks(orders: OrdersNeedingSupport) {
  return [
    {
      title: "Stuck orders",
      href: "/orders?status=reserved,processing",
      linkLabel: "All open orders",
      testId: "home-stuck",
      group: orders.stuck,
      counts: `not final ${STUCK_AFTER_MINUTES} minutes after they were placed, oldest first.`,
      empty: "No order is stuck: every order placed more than a quarter of an hour ago has finished.",
      time: "created" as const,
    },
    {
      title: "Failed orders",
      href: "/orders?status=failed",
      linkLabel: "All failed orders",
      testId: "home-support-failed",
      group: orders.failed,
      counts: `failed in the last ${FAILED_WINDOW_HOURS} hours.`,
      empty: "No order failed in the last day.",
      time: "updated" as const,
    },
  ];
}

/** Its reads, started by the home page (a section whose reads are quick comes with the page). */
export function loadSupportHome({ actor }: LiveSession) {
  const now = new Date();
  return Promise.all([ordersNeedingSupport(actor, now), recentReveals(actor, now), recentQuotaAlerts(actor)]);
}

/** Support's home: failed and stuck orders, the newest code reveals, and any reveal-quota alert. */
export async function SupportHome({ data }: { data: ReturnType<typeof loadSupportHome> }) {
  const [orders, reveals, alerts] = await data;
  return (
    <HomeSection title="Support">
      {alerts.count > 0 ? (
        <div className="lg:col-span-2">
          <Notice tone="warning" title="Reveal quota exceeded" testId="home-quota-alert">
            In the last 24 hours {alerts.people.join(", ")} tried to reveal codes beyond the hourly quota ({alerts.count} time
            {alerts.count === 1 ? "" : "s"}). Admins have been alerted.
          </Notice>
        </div>
      ) : null}
      {orderBlocks(orders).map((block) => (
        <HomeBlock key={block.testId} title={block.title} href={block.href} linkLabel={block.linkLabel} testId={block.testId}>
          <HomeFigure value={block.group.count} capped={block.group.capped} testId={`${block.testId}-count`}>
            {block.counts}
          </HomeFigure>
          <OrderGlanceList
            orders={block.group.items}
            label={block.title}
            empty={block.empty}
            time={block.time}
            testId={`${block.testId}-list`}
          />
        </HomeBlock>
      ))}
      <HomeBlock title="Recent code reveals" testId="home-recent-reveals" wide>
        <HomeFigure value={reveals.lastDay} testId="home-reveals-count">
          reveal{reveals.lastDay === 1 ? "" : "s"} in the last 24 hours. You have used{" "}
          <span data-testid="home-reveal-quota">
            {reveals.mine.used} of {reveals.mine.quota}
          </span>{" "}
          this hour.
        </HomeFigure>
        {reveals.items.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="home-reveals-empty">
            Nobody has revealed codes yet.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Newest reveals" data-testid="home-reveals-list">
            {reveals.items.map((r, i) => (
              <li key={i} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2 text-sm">
                <span className="min-w-0">
                  <Link
                    href={`/orders/${encodeURIComponent(r.orderId)}`}
                    className="break-all font-medium text-brand-700 hover:underline"
                  >
                    {r.clientReference ?? r.orderId}
                  </Link>
                  <span className="block text-xs text-slate-600">
                    {r.actorEmail ?? "unknown"} · ticket {r.ticket} · <time dateTime={r.at}>{utcTime(r.at)}</time>
                  </span>
                </span>
                <StatusPill
                  status={r.state}
                  label={REVEAL_STATE_LABELS[r.state] ?? r.state}
                  tone={REVEAL_TONES[r.state]}
                  testId="home-reveal-outcome"
                  dataAttribute="data-state"
                />
              </li>
            ))}
          </ul>
        )}
      </HomeBlock>
    </HomeSection>
  );
}
