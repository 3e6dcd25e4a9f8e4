import "server-only";
import type { Tx } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import { OPEN_STATUSES, type OrderStatus } from "@/lib/orders/states";

/**
 * A bulk file's failures, as ONE message to its buyer: sent when the file is finished (every
 * row sent, `done`, and none of its orders still on their way) and something failed, whether
 * the upstream refused a row when it was sent or failed an order it had accepted. Called in the
 * transaction of each event that may finish it: the file moving to `done`
 * (lib/bulk-orders/run-bulk-order.ts) and one of its orders reaching a final status
 * (lib/orders/mirror.ts). The file's row is locked first, so of two such events committing at
 * once the later one sees the other's write; the event key (one per file) keeps it to one.
 */
export async function noticeBulkFailures(tx: Tx, bulkOrderId: string): Promise<void> {
  const [bulk] = await tx.$queryRaw<{ state: string; createdById: string; fileName: string | null; validCount: number }[]>`
    SELECT "state", "createdById", "fileName", "validCount" FROM "BulkOrder" WHERE "id" = ${bulkOrderId} FOR UPDATE`;
  if (bulk?.state !== "done") return;
  const rows = await tx.bulkOrderRow.findMany({
    where: { bulkOrderId, state: { in: ["placed", "failed"] } },
    select: { state: true, orderId: true, quotedTotalMinor: true, currency: true },
  });
  const placed = rows.filter((r) => r.state === "placed" && r.orderId);
  const orders = new Map(
    (await tx.order.findMany({ where: { id: { in: placed.map((r) => r.orderId!) } }, select: { id: true, status: true } })).map(
      (o) => [o.id, o.status as OrderStatus],
    ),
  );
  // An order not yet mirrored, or still reserved or processing: the file is not finished.
  if (placed.some((r) => !orders.has(r.orderId!) || OPEN_STATUSES.includes(orders.get(r.orderId!)!))) return;
  const failed = rows.filter((r) => r.state === "failed" || (r.orderId && orders.get(r.orderId) === "failed"));
  if (failed.length === 0) return;
  const sums = new Map<string, bigint>();
  for (const r of failed) if (r.currency) sums.set(r.currency, (sums.get(r.currency) ?? 0n) + (r.quotedTotalMinor ?? 0n));
  await notify(tx, "orders.failed", {
    about: "bulk",
    bulkOrderId,
    fileName: bulk.fileName,
    failed: failed.length,
    valid: bulk.validCount,
    amounts: [...sums].map(([currency, amountMinor]) => ({ currency, amountMinor })),
    buyerId: bulk.createdById,
  });
}
