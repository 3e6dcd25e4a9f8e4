import { Link } from "@/components/ui/link";
import { formatMoney } from "@/lib/money";
import type { OrderListRow } from "@/lib/orders/list-orders";
import { OrderStatusBadge } from "./order-status-badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { utcTime } from "@/components/ui/utc-time";

function columns(reveals: Record<string, number>): Column<OrderListRow>[] {
  return [
    {
      key: "created",
      header: "Created (UTC)",
      className: "whitespace-nowrap font-mono text-xs",
      cell: (row) => <time dateTime={row.createdAt}>{utcTime(row.createdAt, "minute", true)}</time>,
    },
    {
      key: "reference",
      header: "Client reference",
      rowHeader: true,
      cell: (row) => (
        <>
          <Link href={`/orders/${encodeURIComponent(row.id)}`} className="text-brand-600 hover:underline">
            {row.clientReference}
          </Link>
          <span className="block font-mono text-xs font-normal text-slate-500">{row.id}</span>
        </>
      ),
    },
    {
      key: "products",
      header: "Products",
      className: "max-w-xs",
      cell: (row) =>
        row.items.length === 0 ? (
          <span className="text-slate-500">—</span>
        ) : (
          <ul>
            {row.items.map((item, i) => (
              <li key={i} className="truncate" title={`${item.productName} ${item.variantLabel}`.trim()}>
                {item.quantity} × {item.productName || item.productId}
                {item.variantLabel ? <span className="text-slate-500"> · {item.variantLabel}</span> : null}
              </li>
            ))}
          </ul>
        ),
    },
    {
      key: "status",
      header: "Status",
      className: "whitespace-nowrap",
      cell: (row) => (
        <>
          <OrderStatusBadge status={row.status} />
          {(reveals[row.id] ?? 0) > 1 ? (
            <span
              className="ml-1 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800"
              data-testid="revealed-repeatedly"
              title="Codes revealed more than once"
            >
              Revealed {reveals[row.id]}×
            </span>
          ) : null}
        </>
      ),
    },
    {
      key: "total",
      header: "Total",
      align: "right",
      className: "whitespace-nowrap tabular-nums",
      cell: (row) => formatMoney(row.totalMinor, row.currency),
    },
    {
      key: "origin",
      header: "Origin",
      testId: "order-origin",
      cell: (row) => (
        <span title={row.placedBy?.email} data-origin={row.origin}>
          {row.origin === "elsewhere" ? (
            <span className="text-slate-600">API elsewhere</span>
          ) : (
            (row.placedBy?.name ?? <span className="text-slate-600">Placed here</span>)
          )}
        </span>
      ),
    },
  ];
}

/** The orders list: one row per mirrored order, linking to its live order page. */
/** `reveals`: how often each order's codes were revealed; more than once is flagged for review. */
export function OrdersTable({ rows, reveals = {} }: { rows: OrderListRow[]; reveals?: Record<string, number> }) {
  return (
    <DataTable
      rows={rows}
      row={(row) => ({ key: row.id, "data-order-id": row.id, "data-status": row.status })}
      name={{ label: "Orders", caption: "Orders, newest first", testId: "orders-table" }}
      columns={columns(reveals)}
    />
  );
}
