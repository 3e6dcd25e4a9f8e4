import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { describePriceFlag } from "@/lib/catalog-watch/price-flag-words";
import { priceFlags, type PricedItem } from "@/lib/catalog-watch/price-flags";
import { storedSpendLine } from "./spend-lines";

const OPEN = ["awaiting", "approved"];
const bulkRowRequest = z.object({
  productId: z.string(),
  variantId: z.string().nullish(),
  quantity: z.number().int().positive(),
});

/**
 * For the open requests among `rows` (nothing bought yet), what the catalog watch saw move
 * since they were priced: "The price of 3 rows rose 6 % since you uploaded." By request id;
 * requests with nothing to say are left out. No upstream call.
 */
export async function spendPriceNotes(
  rows: { id: string; kind: string; state: string; lines: unknown; bulkOrderId: string | null }[],
): Promise<Map<string, string>> {
  const open = rows.filter((r) => OPEN.includes(r.state));
  const groups = new Map<string, PricedItem[]>();
  for (const row of open) {
    if (row.kind === "bulk") continue;
    const lines = z.array(storedSpendLine).safeParse(row.lines);
    if (!lines.success) continue;
    groups.set(
      row.id,
      lines.data.map((l) => ({
        productId: l.productId,
        variantId: l.variantId,
        unitMinor: l.unitMinor === null ? null : BigInt(l.unitMinor),
      })),
    );
  }
  const bulkIds = open.flatMap((r) => (r.kind === "bulk" && r.bulkOrderId ? [[r.bulkOrderId, r.id] as const] : []));
  for (const [bulkOrderId, items] of await unplacedRows(bulkIds.map(([id]) => id)))
    groups.set(bulkIds.find(([id]) => id === bulkOrderId)![1], items);
  const flags = await priceFlags(groups);
  const notes = new Map<string, string>();
  for (const row of open) {
    const flag = flags.get(row.id);
    const words =
      flag && describePriceFlag(flag, row.kind === "bulk" ? "row" : "line", row.kind === "bulk" ? "you uploaded" : "you asked");
    if (words) notes.set(row.id, words);
  }
  return notes;
}

/** A bulk file's note, as for a request: its unplaced rows' moves since upload, or null. */
export async function bulkPriceNote(bulkOrderId: string): Promise<string | null> {
  const flags = await priceFlags(await unplacedRows([bulkOrderId]));
  const flag = flags.get(bulkOrderId);
  return flag ? describePriceFlag(flag, "row", "you uploaded") : null;
}

/** A bulk file's rows not placed yet, as they were priced at upload, by bulk order id. */
export async function unplacedRows(bulkOrderIds: string[]): Promise<Map<string, PricedItem[]>> {
  if (bulkOrderIds.length === 0) return new Map();
  const rows = await db().bulkOrderRow.findMany({
    where: { bulkOrderId: { in: bulkOrderIds }, state: "pending" },
    select: { bulkOrderId: true, request: true, quotedTotalMinor: true },
  });
  const byFile = new Map<string, PricedItem[]>();
  for (const row of rows) {
    const request = bulkRowRequest.safeParse(row.request);
    if (!request.success) continue;
    const { productId, variantId, quantity } = request.data;
    const total = row.quotedTotalMinor;
    const unitMinor = total !== null && total % BigInt(quantity) === 0n ? total / BigInt(quantity) : null;
    byFile.set(row.bulkOrderId, [...(byFile.get(row.bulkOrderId) ?? []), { productId, variantId: variantId ?? null, unitMinor }]);
  }
  return byFile;
}
