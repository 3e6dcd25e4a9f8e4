import "server-only";
import { z } from "zod";
import { multiLineText, singleLineText, parseInput } from "@/lib/validation";
import { db, Prisma } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy } from "@/lib/upstream/service";
import { checkRows, type CheckedRow } from "./check-rows";
import { findUsedReferences } from "./find-used-references";
import { getBulkOrder } from "./get-bulk-order";
import type { BulkOrderView, MoneyTotal } from "./bulk-view";
import { MAX_CSV_BYTES } from "./parse-csv";
import { parseBulkCsv } from "./parse-csv";

export const uploadBulkOrderSchema = z
  .object({
    fileName: singleLineText().trim().max(200, "Use a file name of at most 200 characters.").optional(),
    csv: multiLineText()
      .min(1, "Choose a CSV file.")
      .max(MAX_CSV_BYTES, `The file is larger than ${MAX_CSV_BYTES / 1024} KiB. Split it into several uploads.`),
  })
  .strict();

/**
 * Turns an uploaded CSV into a draft bulk order: every row checked and the valid ones
 * priced, stored with their messages, nothing bought. The buyer confirms it (or not) next.
 */
export async function previewBulkOrder(actor: Actor, input: unknown): Promise<BulkOrderView> {
  assertCan(actor, "orders.create");
  const data = parseInput(uploadBulkOrderSchema, input);
  const rows = await checkRows(parseBulkCsv(data.csv), spentBy(actor));

  const references = rows.flatMap((r) => (r.request ? [r.request.clientReference] : []));
  const used = await findUsedReferences(references);
  for (const row of rows) {
    const reason = row.request ? used.get(row.request.clientReference) : undefined;
    if (!reason) continue;
    row.errors.clientReference = [reason];
    row.request = null;
  }

  const valid = rows.filter((r) => r.request);
  const bulk = await db().bulkOrder.create({
    data: {
      createdById: actor.staffId,
      fileName: data.fileName ? data.fileName.split(/[\\/]/).pop() || null : null,
      rowCount: rows.length,
      validCount: valid.length,
      totals: totalsOf(valid),
      rows: { createMany: { data: rows.map(toRowData) } },
    },
    select: { id: true },
  });
  return getBulkOrder(actor, bulk.id);
}

export function totalsOf(rows: Pick<CheckedRow, "totalMinor" | "currency">[]): MoneyTotal[] {
  const sums = new Map<string, bigint>();
  for (const row of rows) {
    if (row.totalMinor === null || !row.currency) continue;
    sums.set(row.currency, (sums.get(row.currency) ?? 0n) + row.totalMinor);
  }
  return [...sums]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, total]) => ({ currency, totalMinor: total.toString() }));
}

function toRowData(row: CheckedRow): Prisma.BulkOrderRowCreateManyBulkOrderInput {
  const valid = row.request !== null;
  return {
    rowNumber: row.rowNumber,
    input: row.cells,
    request: valid ? (row.request as Prisma.InputJsonValue) : Prisma.DbNull,
    errors: valid ? Prisma.DbNull : (row.errors as Prisma.InputJsonValue),
    clientReference: row.cells.clientReference || null,
    productName: row.productName,
    optionLabel: row.optionLabel,
    quotedTotalMinor: valid ? row.totalMinor : null,
    currency: valid ? row.currency : null,
  };
}
