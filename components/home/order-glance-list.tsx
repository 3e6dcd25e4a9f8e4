import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { formatMoney } from "@/lib/money";
import type { OrderGlance } from "@/lib/overview/order-glance";
import { OrderStatusBadge } from "@/components/orders/order-status-badge";
import { utcTime } from "@/components/ui/utc-time";

/**
 * A short list of orders in a home block: reference (to the order), state, total and a
 * time, and what one can do next (`action`). An empty list says so in `empty`.
 */
export function OrderGlanceList({
  orders,
  label,
  empty,
  time = "created",
  action,
  testId,
}: {
  orders: OrderGlance[];
  /** What the list is, for screen readers. */
  label: string;
  empty: string;
  /** Which time to show: when it was placed, or when it last changed (failed). */
  time?: "created" | "updated";
  action?: (order: OrderGlance) => ReactNode;
  testId?: string;
}) {
  if (orders.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid={testId ? `${testId}-empty` : undefined}>
        {empty}
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100" aria-label={label} data-testid={testId}>
      {orders.map((order) => {
        const at = time === "created" ? order.createdAt : order.updatedAt;
        return (
          <li
            key={order.id}
            className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2 text-sm"
            data-id={order.id}
          >
            <span className="min-w-0">
              <Link
                href={`/orders/${encodeURIComponent(order.id)}`}
                className="break-all font-medium text-brand-700 hover:underline"
              >
                {order.clientReference}
              </Link>
              <span className="block text-xs text-slate-600">
                {formatMoney(order.totalMinor, order.currency)} · {time === "created" ? "placed" : "changed"}{" "}
                <time dateTime={at}>{utcTime(at)}</time>
              </span>
            </span>
            <span className="flex items-center gap-3">
              <OrderStatusBadge status={order.status} />
              {action?.(order)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
