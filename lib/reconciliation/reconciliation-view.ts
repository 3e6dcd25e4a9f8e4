import type { Explanation } from "./explain-difference";
import type { ReconciliationRecord } from "./reconcile-day";

/** A kept day and currency as pages, the API and the CSV show it: minor units as strings. */
export type ReconciliationView = {
  day: string;
  currency: string;
  status: "reconciled" | "difference" | "baseline";
  openingMinor: string | null;
  capturedMinor: string;
  capturedCount: number;
  refundedMinor: string;
  refundedCount: number;
  creditedMinor: string;
  creditedCount: number;
  withdrawnMinor: string;
  withdrawnCount: number;
  expectedClosingMinor: string | null;
  closingMinor: string;
  differenceMinor: string | null;
  /** The part of the difference the explanations account for. */
  explainedMinor: string;
  readAt: string;
  readAsOf: string | null;
  readTotalMinor: string;
  readAvailableMinor: string;
  readReservedMinor: string;
  readPendingMinor: string;
  afterDayMinor: string;
  explanations: Explanation[];
  explanationNote: string | null;
  updatedAt: string;
};

const text = (v: bigint | null) => (v === null ? null : v.toString());

export function toReconciliationView(r: ReconciliationRecord): ReconciliationView {
  const explanations = (Array.isArray(r.explanations) ? r.explanations : []) as Explanation[];
  return {
    day: r.day,
    currency: r.currency,
    status: r.status as ReconciliationView["status"],
    openingMinor: text(r.openingMinor),
    capturedMinor: r.capturedMinor.toString(),
    capturedCount: r.capturedCount,
    refundedMinor: r.refundedMinor.toString(),
    refundedCount: r.refundedCount,
    creditedMinor: r.creditedMinor.toString(),
    creditedCount: r.creditedCount,
    withdrawnMinor: r.withdrawnMinor.toString(),
    withdrawnCount: r.withdrawnCount,
    expectedClosingMinor: text(r.expectedClosingMinor),
    closingMinor: r.closingMinor.toString(),
    differenceMinor: text(r.differenceMinor),
    explainedMinor: explanations.reduce((sum, e) => sum + BigInt(e.amountMinor), 0n).toString(),
    readAt: r.readAt.toISOString(),
    readAsOf: r.readAsOf?.toISOString() ?? null,
    readTotalMinor: r.readTotalMinor.toString(),
    readAvailableMinor: r.readAvailableMinor.toString(),
    readReservedMinor: r.readReservedMinor.toString(),
    readPendingMinor: r.readPendingMinor.toString(),
    afterDayMinor: r.afterDayMinor.toString(),
    explanations,
    explanationNote: r.explanationNote,
    updatedAt: r.updatedAt.toISOString(),
  };
}
