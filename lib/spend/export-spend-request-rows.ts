import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { toCsvRow } from "@/lib/csv";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { minorToDecimal } from "@/lib/money";
import { getSpendRequest } from "./get-spend-request";

const HEADER = ["row", "clientReference", "productId", "product", "option", "quantity", "total", "currency"];

/**
 * The rows of a bulk file waiting for (or past) approval, as CSV: what each row buys and at what
 * total, as the preview priced it. For the approver, who is not the uploader: no phone numbers.
 * Cells are formula-safe (lib/csv.ts): references and names come from the file and the upstream.
 */
export async function exportSpendRequestRows(actor: Actor, id: unknown): Promise<{ fileName: string; csv: string }> {
  const request = await getSpendRequest(actor, id);
  if (request.kind !== "bulk" || !request.bulkOrderId)
    throw new AppError("not_found", "This spend request is for one order, not a bulk file.");
  const [file, rows] = await Promise.all([
    db().bulkOrder.findUnique({ where: { id: request.bulkOrderId }, select: { fileName: true } }),
    db().bulkOrderRow.findMany({
      where: { bulkOrderId: request.bulkOrderId, quotedTotalMinor: { not: null } },
      orderBy: { rowNumber: "asc" },
      select: {
        rowNumber: true,
        clientReference: true,
        productName: true,
        optionLabel: true,
        request: true,
        quotedTotalMinor: true,
        currency: true,
      },
    }),
  ]);
  const lines = rows.map((row) => {
    const asked = (row.request ?? {}) as { productId?: string; quantity?: number };
    return toCsvRow([
      row.rowNumber,
      row.clientReference,
      asked.productId ?? "",
      row.productName,
      row.optionLabel,
      asked.quantity ?? "",
      row.currency && row.quotedTotalMinor !== null ? minorToDecimal(row.quotedTotalMinor, row.currency) : "",
      row.currency,
    ]);
  });
  const base = (file?.fileName ?? "bulk-order").replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "_");
  return { fileName: `${base}-for-approval.csv`, csv: toCsvRow(HEADER) + lines.join("") };
}
