import "server-only";
import { db } from "@/lib/db/client";
import { minorToDecimal } from "@/lib/money";

/** One product and option of a bulk file: how many rows name it, the quantity and the total they buy. */
export type BulkLineView = {
  productId: string | null;
  productName: string | null;
  option: string | null;
  rows: number;
  quantity: number;
  /** Decimal amounts in `currency`; the unit is null when the total does not divide by the quantity. */
  unit: string | null;
  total: string;
  currency: string;
};
export type BulkSummaryView = { fileName: string | null; rowCount: number; validCount: number; lines: BulkLineView[] };

type Group = {
  bulkOrderId: string;
  productId: string | null;
  productName: string | null;
  optionLabel: string | null;
  currency: string;
  rows: number;
  quantity: number;
  total: bigint;
};

/**
 * What each waiting bulk file buys, summed by product and option from its priced rows (as the
 * preview checked them; the rows are what an approval places), the largest first. One query for
 * every file on the page.
 */
export async function bulkRequestSummaries(bulkOrderIds: string[]): Promise<Map<string, BulkSummaryView>> {
  const summaries = new Map<string, BulkSummaryView>();
  if (bulkOrderIds.length === 0) return summaries;
  const [files, groups] = await Promise.all([
    db().bulkOrder.findMany({
      where: { id: { in: bulkOrderIds } },
      select: { id: true, fileName: true, rowCount: true, validCount: true },
    }),
    db().$queryRaw<Group[]>`
      SELECT r."bulkOrderId", r."request"->>'productId' AS "productId", r."productName", r."optionLabel", r."currency",
             count(*)::int AS "rows", sum((r."request"->>'quantity')::int)::int AS "quantity",
             sum(r."quotedTotalMinor")::bigint AS "total"
      FROM "BulkOrderRow" r
      WHERE r."bulkOrderId" = ANY(${bulkOrderIds}::text[]) AND r."request" IS NOT NULL
        AND r."quotedTotalMinor" IS NOT NULL AND r."currency" IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5
      ORDER BY 1, "total" DESC, 3, 4`,
  ]);
  for (const file of files)
    summaries.set(file.id, { fileName: file.fileName, rowCount: file.rowCount, validCount: file.validCount, lines: [] });
  for (const g of groups) {
    const total = BigInt(g.total);
    summaries.get(g.bulkOrderId)?.lines.push({
      productId: g.productId,
      productName: g.productName,
      option: g.optionLabel,
      rows: g.rows,
      quantity: g.quantity,
      unit: g.quantity > 0 && total % BigInt(g.quantity) === 0n ? minorToDecimal(total / BigInt(g.quantity), g.currency) : null,
      total: minorToDecimal(total, g.currency),
      currency: g.currency,
    });
  }
  return summaries;
}
