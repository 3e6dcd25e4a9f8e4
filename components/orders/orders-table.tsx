import Link from "next/link";
import { formatMoney } from "@/lib/money";
import type { OrderListRow } from "@/lib/orders/list-orders";
import { OrderStatusBadge } from "./order-status-badge";
import { TableScroll } from "@/components/ui/table-scroll";

const utc = (iso: string) => iso.replace("T", " ").slice(0, 16);

/** The orders list: one row per mirrored order, linking to its live order page. */
/** `reveals`: how often each order's codes were revealed; more than once is flagged for review. */
export function OrdersTable({ rows, reveals = {} }: { rows: OrderListRow[]; reveals?: Record<string, number> }) {
  return (
    <TableScroll label="Orders" className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="orders-table">
        <caption className="sr-only">Orders, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-3">Created (UTC)</th>
            <th scope="col" className="px-4 py-3">Client reference</th>
            <th scope="col" className="px-4 py-3">Products</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3 text-right">Total</th>
            <th scope="col" className="px-4 py-3">Origin</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-order-id={row.id} data-status={row.status}>
              <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">
                <time dateTime={row.createdAt}>{utc(row.createdAt)}</time>
              </td>
              <th scope="row" className="px-4 py-2 text-left font-medium">
                <Link href={`/orders/${encodeURIComponent(row.id)}`} className="text-brand-600 hover:underline">
                  {row.clientReference}
                </Link>
                <span className="block font-mono text-xs font-normal text-slate-500">{row.id}</span>
              </th>
              <td className="max-w-xs px-4 py-2">
                {row.items.length === 0 ? (
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
                )}
              </td>
              <td className="whitespace-nowrap px-4 py-2">
                <OrderStatusBadge status={row.status} />
                {(reveals[row.id] ?? 0) > 1 ? (
                  <span className="ml-1 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-800" data-testid="revealed-repeatedly" title="Codes revealed more than once">
                    Revealed {reveals[row.id]}×
                  </span>
                ) : null}
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums">{formatMoney(row.totalMinor, row.currency)}</td>
              <td className="px-4 py-2" title={row.placedBy?.email} data-testid="order-origin" data-origin={row.origin}>
                {row.origin === "elsewhere" ? <span className="text-slate-600">API elsewhere</span> : (row.placedBy?.name ?? <span className="text-slate-600">Placed here</span>)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
