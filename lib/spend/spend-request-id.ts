import { randomBytes } from "node:crypto";

export function newSpendRequestId(): string {
  return `sr_${randomBytes(12).toString("base64url")}`;
}

/** Totals as stored on a request: currency → minor units as a decimal string (JSON has no bigint). */
export type StoredTotals = Record<string, string>;

export function toStoredTotals(amounts: { currency: string; amountMinor: bigint }[]): StoredTotals {
  return Object.fromEntries(amounts.map((a) => [a.currency, a.amountMinor.toString()]));
}

export function readStoredTotals(json: unknown): { currency: string; amountMinor: bigint }[] {
  if (!json || typeof json !== "object") return [];
  return Object.entries(json as Record<string, unknown>).flatMap(([currency, v]) =>
    typeof v === "string" && /^\d+$/.test(v) ? [{ currency, amountMinor: BigInt(v) }] : [],
  );
}

/** The charge a request holds against the buyer's limits. */
export function chargeSource(row: { id: string; kind: string; bulkOrderId: string | null }): string {
  return row.kind === "bulk" && row.bulkOrderId ? `bulk:${row.bulkOrderId}` : `spend:${row.id}`;
}
