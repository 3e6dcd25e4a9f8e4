import { formatMoney } from "@/lib/money";
import type { OrderListRow } from "@/lib/orders/list-orders";
import { utcTime } from "@/components/ui/utc-time";
import { OrdersTableRows, type OrderTableRow } from "./orders-table-rows";

/**
 * The orders list: one row per mirrored order, linking to its live order page. `reveals`: how
 * often each order's codes were revealed; more than once is flagged for review.
 *
 * The rows are laid out by a client component from data the server has already put in words
 * (money and times formatted here, so server and browser show the same text): a client
 * component's element costs the server one pass, a server component's three
 * (docs/decisions/0009-list-rows-laid-out-by-a-client-component.md).
 */
export function OrdersTable({ rows, reveals = {} }: { rows: OrderListRow[]; reveals?: Record<string, number> }) {
  return (
    <OrdersTableRows
      rows={rows.map((row): OrderTableRow => ({
        id: row.id,
        clientReference: row.clientReference,
        status: row.status,
        createdAt: row.createdAt,
        created: utcTime(row.createdAt, "minute", true),
        items: row.items.map(({ quantity, productId, productName, variantLabel }) => ({
          quantity,
          product: productName || productId,
          variantLabel,
        })),
        total: formatMoney(row.totalMinor, row.currency),
        origin: row.origin,
        placedBy: row.placedBy ? { name: row.placedBy.name, email: row.placedBy.email } : null,
        reveals: reveals[row.id] ?? 0,
      }))}
    />
  );
}
