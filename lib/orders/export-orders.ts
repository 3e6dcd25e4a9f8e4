import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { toCsvRow } from "@/lib/csv";
import { currencyExponent, toDecimalString } from "@/lib/money";
import { listOrders, type OrderFilter, type OrderListRow } from "./list-orders";

const HEADER = ["orderId", "createdAtUtc", "updatedAtUtc", "clientReference", "status", "total", "currency", "items", "origin", "placedBy", "placedByEmail"];
const BATCH = 500;

/**
 * Streams the filtered orders list as CSV, in the list's order (newest first), a batch
 * at a time through the same keyset cursor, so a large export never loads the table.
 * Totals are exact decimal strings from the minor units; cells are formula-safe.
 */
export function exportOrdersCsv(actor: Actor, filter: OrderFilter): ReadableStream<Uint8Array> {
  assertCan(actor, "orders.read");
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let headerSent = false;
  let done = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(toCsvRow(HEADER)));
      }
      if (done) return controller.close();
      const page = await listOrders(actor, filter, { cursor, limit: BATCH });
      if (page.rows.length) controller.enqueue(encoder.encode(page.rows.map(csvRow).join("")));
      if (!page.nextCursor) done = true;
      else cursor = page.nextCursor;
    },
  });
}

function csvRow(row: OrderListRow): string {
  const items = row.items.map((i) => `${i.quantity} × ${i.productName || i.productId}${i.variantLabel ? ` (${i.variantLabel})` : ""}`).join("; ");
  return toCsvRow([
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
  ]);
}
