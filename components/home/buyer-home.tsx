import { Link } from "@/components/ui/link";
import type { LiveSession } from "@/lib/auth/staff-session";
import { failedOrdersToRetry, RETRY_WINDOW_DAYS } from "@/lib/overview/failed-orders-to-retry";
import { ordersToday } from "@/lib/overview/orders-today";
import { buyerSpendRequests } from "@/lib/overview/buyer-spend-requests";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import { HomeBlock, HomeSection } from "./home-block";
import { HomeFigure } from "./home-figure";
import { OrderGlanceList } from "./order-glance-list";
import { SpendRequestGlance } from "./spend-request-glance";

/** Its reads, started by the home page (a section whose reads are quick comes with the page). */
export async function loadBuyerHome({ actor }: LiveSession) {
  const now = new Date();
  const [today, failed, spend] = await Promise.all([
    ordersToday(actor, now),
    failedOrdersToRetry(actor, now),
    buyerSpendRequests(actor, now),
  ]);
  return { now, today, failed, spend };
}

/**
 * The buyer's home: their orders today by state, their requests waiting for an approver (or
 * rejected this week), and the failed orders that need buying again.
 */
export async function BuyerHome({ data }: { data: ReturnType<typeof loadBuyerHome> }) {
  const { now, today, failed, spend } = await data;
  return (
    <HomeSection title="Your orders">
      <HomeBlock
        title="Today"
        href={`/orders?placedBy=me&from=${today.day}&to=${today.day}`}
        linkLabel="All of today's"
        testId="home-orders-today"
      >
        <HomeFigure value={today.total} testId="home-orders-today-count">
          {today.total === 1 ? "order" : "orders"} placed by you today ({today.day}, UTC)
          {spend.waiting > 0 ? (
            <span className="block text-slate-600" data-testid="home-orders-today-waiting">
              and {spend.waiting} waiting for approval ({spend.waitingTotal}), not placed yet
            </span>
          ) : null}
        </HomeFigure>
        {today.byStatus.length > 0 ? (
          <ul className="mb-3 flex flex-wrap gap-3" aria-label="By state">
            {today.byStatus.map(({ status, count }) => (
              <li
                key={status}
                className="flex items-center gap-1.5 text-sm"
                data-testid="home-orders-today-state"
                data-status={status}
              >
                <OrderStatusBadge status={status} />
                <span className="font-semibold tabular-nums">{count}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <OrderGlanceList
          orders={today.latest}
          label="Your newest orders today"
          empty="You have not placed an order today. The catalog is where one starts."
          testId="home-orders-today-list"
        />
      </HomeBlock>
      <SpendRequestGlance requests={spend} now={now} />
      <HomeBlock
        title="Failed, to order again"
        href="/orders?placedBy=me&status=failed"
        linkLabel="All your failed orders"
        testId="home-failed-orders"
      >
        <HomeFigure value={failed.count} testId="home-failed-count">
          of your orders failed in the last {RETRY_WINDOW_DAYS} days. Nothing was charged; each can be ordered again.
        </HomeFigure>
        <OrderGlanceList
          orders={failed.items}
          label="Your failed orders"
          empty="None of your orders failed. Nothing to retry."
          time="updated"
          testId="home-failed-list"
          action={(order) =>
            order.productId ? (
              <Link
                href={`/catalog/${encodeURIComponent(order.productId)}`}
                className="whitespace-nowrap text-sm font-medium text-brand-700 hover:underline"
                data-testid="home-order-again"
              >
                Order again<span className="sr-only"> ({order.clientReference})</span>
              </Link>
            ) : null
          }
        />
      </HomeBlock>
    </HomeSection>
  );
}
