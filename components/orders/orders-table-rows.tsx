"use client";

import { Link } from "@/components/ui/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import type { OrderOrigin } from "@/lib/orders/get-order";
import type { OrderStatus } from "@/lib/orders/states";
import { OrderStatusBadge } from "./order-status-badge";

/** One order as the list shows it, every figure already in words (orders-table.tsx says why). */
export type OrderTableRow = {
  id: string;
  clientReference: string;
  status: OrderStatus;
  /** ISO time, for `<time dateTime>`; `created` is how it reads. */
  createdAt: string;
  created: string;
  items: { quantity: number; product: string; variantLabel: string }[];
  total: string;
  origin: OrderOrigin;
  placedBy: { name: string; email: string } | null;
  /** How often the order's codes were revealed. */
  reveals: number;
};

const COLUMNS: Column<OrderTableRow>[] = [
  {
    key: "created",
    header: "Created (UTC)",
    className: "whitespace-nowrap font-mono text-xs",
    cell: (row) => <time dateTime={row.createdAt}>{row.created}</time>,
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
            <li key={i} className="truncate" title={`${item.product} ${item.variantLabel}`.trim()}>
              {`${item.quantity} × ${item.product}`}
              {item.variantLabel ? <span className="text-slate-500">{` · ${item.variantLabel}`}</span> : null}
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
        {row.reveals > 1 ? (
          <span
            className="ml-1 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800"
            data-testid="revealed-repeatedly"
            title="Codes revealed more than once"
          >
            Revealed {row.reveals}×
          </span>
        ) : null}
      </>
    ),
  },
  { key: "total", header: "Total", align: "right", className: "whitespace-nowrap tabular-nums", cell: (row) => row.total },
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

/** The orders table itself, from rows the server has formatted. */
export function OrdersTableRows({ rows }: { rows: OrderTableRow[] }) {
  return (
    <DataTable
      rows={rows}
      row={(row) => ({ key: row.id, "data-order-id": row.id, "data-status": row.status })}
      name={{ label: "Orders", caption: "Orders, newest first", testId: "orders-table" }}
      columns={COLUMNS}
    />
  );
}
