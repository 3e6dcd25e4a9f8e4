import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { streamCsv } from "@/lib/csv-stream";
import { db } from "@/lib/db/client";
import { minorToDecimal } from "@/lib/money";
import { RECONCILIATION_ORDER, reconciliationWhere, type ReconciliationFilter } from "./list-reconciliations";
import { toReconciliationView, type ReconciliationView } from "./reconciliation-view";

const HEADER = [
  "day",
  "currency",
  "status",
  "opening",
  "captured",
  "capturedOrders",
  "refunded",
  "refundedOrders",
  "credited",
  "credits",
  "withdrawn",
  "withdrawals",
  "expectedClosing",
  "closing",
  "difference",
  "explained",
  "readAt",
  "explanations",
];
const BATCH = 500;

/** The kept days as CSV (amounts as decimals), newest first, a batch at a time. */
export async function exportReconciliationsCsv(actor: Actor, filter: ReconciliationFilter): Promise<ReadableStream<Uint8Array>> {
  assertCan(actor, "wallet.read");
  return streamCsv<string>(HEADER, async (after) => {
    const batch = await db().walletReconciliation.findMany({
      where: reconciliationWhere(filter, after ?? undefined),
      orderBy: RECONCILIATION_ORDER,
      take: BATCH,
    });
    const last = batch[batch.length - 1];
    return {
      rows: batch.map((r) => toCells(toReconciliationView(r))),
      next: batch.length === BATCH && last ? `${last.day}.${last.currency}` : null,
    };
  });
}

function toCells(r: ReconciliationView): string[] {
  const money = (minor: string | null) => (minor === null ? "" : minorToDecimal(BigInt(minor), r.currency));
  return [
    r.day,
    r.currency,
    r.status,
    money(r.openingMinor),
    money(r.capturedMinor),
    String(r.capturedCount),
    money(r.refundedMinor),
    String(r.refundedCount),
    money(r.creditedMinor),
    String(r.creditedCount),
    money(r.withdrawnMinor),
    String(r.withdrawnCount),
    money(r.expectedClosingMinor),
    money(r.closingMinor),
    money(r.differenceMinor),
    money(r.explainedMinor),
    r.readAt,
    r.explanations.map((e) => `${e.kind} ${e.id} ${money(e.amountMinor)}`).join("; "),
  ];
}
