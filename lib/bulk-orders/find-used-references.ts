import "server-only";
import { db, type Tx } from "@/lib/db/client";

/**
 * Client references already spoken for: by an order in the mirror, or by a row of another
 * confirmed bulk order that is placed or still to be placed. Uploading the same file twice
 * must not buy twice, so such rows are refused at preview and again at confirmation.
 * Returns reference → the reason, for the row's message.
 */
export async function findUsedReferences(
  references: string[],
  excludeBulkOrderId?: string,
  client: Tx = db(),
): Promise<Map<string, string>> {
  const used = new Map<string, string>();
  if (references.length === 0) return used;
  // One after the other: inside a transaction, one connection serves both.
  const orders = await client.order.findMany({
    where: { clientReference: { in: references } },
    select: { id: true, clientReference: true },
  });
  const rows = await client.bulkOrderRow.findMany({
    where: {
      clientReference: { in: references },
      idempotencyKey: { not: null },
      state: { in: ["pending", "placing", "placed"] },
      ...(excludeBulkOrderId ? { bulkOrderId: { not: excludeBulkOrderId } } : {}),
    },
    select: { clientReference: true, rowNumber: true, orderId: true },
  });
  for (const order of orders)
    used.set(order.clientReference, `Already used by order ${order.id}; each order needs its own client reference.`);
  for (const row of rows) {
    if (!row.clientReference || used.has(row.clientReference)) continue;
    used.set(
      row.clientReference,
      row.orderId
        ? `Already used by order ${row.orderId}; each order needs its own client reference.`
        : `Already in another confirmed bulk order (its row ${row.rowNumber}); each order needs its own client reference.`,
    );
  }
  return used;
}
