import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { toCsvRow } from "@/lib/csv";
import { getBulkOrder } from "./get-bulk-order";
import { OUTCOME_LABELS, rowOutcome, rowReason } from "./bulk-outcome";

const HEADER = ["row", "clientReference", "orderId", "status", "reason"];

/**
 * A bulk order's results as CSV, one line per row of the uploaded file: what it became
 * and, where it needs a person, why. Cells are formula-safe (lib/csv.ts): references and
 * reasons come from the uploaded file and the upstream.
 */
export async function exportBulkResults(actor: Actor, id: string): Promise<{ fileName: string; csv: string }> {
  const view = await getBulkOrder(actor, id);
  const lines = view.rows.map((row) =>
    toCsvRow([
      row.rowNumber,
      row.cells.clientReference,
      row.orderId ?? "",
      OUTCOME_LABELS[rowOutcome(row)],
      rowReason(row) ?? "",
    ]),
  );
  const base = (view.fileName ?? "bulk-order").replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "_");
  return { fileName: `${base}-results.csv`, csv: toCsvRow(HEADER) + lines.join("") };
}
