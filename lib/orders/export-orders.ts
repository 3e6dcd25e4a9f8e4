import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { streamCsv } from "@/lib/csv-stream";
import { currencyExponent, toDecimalString } from "@/lib/money";
import { listOrders, type OrderFilter, type OrderListRow } from "./list-orders";

const HEADER = [
  "orderId",
  "createdAtUtc",
  "updatedAtUtc",
  "clientReference",
  "status",
  "total",
  "currency",
  "items",
  "origin",
  "placedBy",
  "placedByEmail",
];
const BATCH = 500;
/** The first batch is a page's worth: the download starts as soon as the list page would show. */
const FIRST_BATCH = 50;

/**
 * The filtered orders list as CSV, in the list's order (newest first), a batch at a time
 * through the same keyset cursor. Totals are exact decimal strings from the minor units.
 */
export async function exportOrdersCsv(actor: Actor, filter: OrderFilter): Promise<ReadableStream<Uint8Array>> {
  assertCan(actor, "orders.read");
  return streamCsv<string>(HEADER, async (cursor) => {
    const page = await listOrders(actor, filter, cursor ? { cursor, limit: BATCH } : { limit: FIRST_BATCH });
    return { rows: page.rows.map(csvCells), next: page.nextCursor };
  });
}

function csvCells(row: OrderListRow): string[] {
  const items = row.items
    .map((i) => `${i.quantity} × ${i.productName || i.productId}${i.variantLabel ? ` (${i.variantLabel})` : ""}`)
    .join("; ");
  return [
    row.id,
    row.createdAt,
    row.updatedAt,
    row.clientReference,
    row.status,
    toDecimalString(BigInt(row.totalMinor), currencyExponent(row.currency)),
    row.currency,
    items,
    row.origin === "here" ? "placed here" : "API elsewhere",
    row.placedBy?.name ?? "",
    row.placedBy?.email ?? "",
  ];
}
