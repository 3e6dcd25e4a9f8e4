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
 * Totals are exact decimal strings from the minor units; cells are formula-safe. The first
 * batch is read before the stream is handed back, so a filter the database refuses is an
 * error answer, not a 200 whose connection is then cut.
 */
export async function exportOrdersCsv(actor: Actor, filter: OrderFilter): Promise<ReadableStream<Uint8Array>> {
  assertCan(actor, "orders.read");
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let done = false;
  let pending: Awaited<ReturnType<typeof listOrders>> | null = await listOrders(actor, filter, { limit: BATCH });
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(toCsvRow(HEADER)));
    },
    async pull(controller) {
      if (done) return controller.close();
      const page = pending ?? (await listOrders(actor, filter, { cursor, limit: BATCH }));
      pending = null;
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
