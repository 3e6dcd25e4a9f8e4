import type { BulkOrder, BulkOrderRow } from "@/lib/db/generated/client";
import type { FieldErrors } from "@/lib/errors";
import { OPEN_STATUSES } from "@/lib/orders/states";
import type { BulkState, RowState } from "./states";
import type { BulkCells } from "./parse-csv";

/**
 * What pages, route handlers and the browser see of a bulk order: JSON-safe (amounts as
 * integer minor-unit strings, dates as ISO strings). Types only and pure mapping, so
 * client components may import the types.
 */
export type MoneyTotal = { currency: string; totalMinor: string };

export type BulkProgress = {
  /** Valid rows at confirmation: what the progress bar counts to. */
  toPlace: number;
  pending: number;
  placing: number;
  placed: number;
  failed: number;
  /** Rows stopped by a cancel before they were sent. */
  cancelled: number;
  /** placed + failed + cancelled: rows whose story is over. */
  settled: number;
};

export type BulkRowView = {
  rowNumber: number;
  state: RowState;
  cells: BulkCells;
  productName: string | null;
  optionLabel: string | null;
  quotedTotalMinor: string | null;
  currency: string | null;
  errors: FieldErrors | null;
  orderId: string | null;
  orderStatus: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  correlationId: string | null;
};

export type BulkOrderSummary = {
  id: string;
  state: BulkState;
  fileName: string | null;
  createdAt: string;
  rowCount: number;
  validCount: number;
  totals: MoneyTotal[];
  progress: BulkProgress;
  /** Placed rows whose order has not finished (isOrderOpen): a done file reads "Done" only at 0 (bulkPhase). */
  ordersOpen: number;
};

export type BulkOrderView = BulkOrderSummary & {
  confirmedAt: string | null;
  finishedAt: string | null;
  cancelledAt: string | null;
  /** Until when a draft may be confirmed at its previewed prices. */
  previewExpiresAt: string | null;
  isOwner: boolean;
  rows: BulkRowView[];
};

/** Prices move: a preview may be confirmed for an hour, then the file is uploaded again. */
export const PREVIEW_TTL_MS = 60 * 60_000;

export const ROW_CANCELLED = "cancelled";
export const ROW_INVALID = "invalid_row";

export type RowCount = { state: string; errorCode: string | null; count: number };

export function progressOf(rows: Pick<BulkOrderRow, "state" | "errorCode">[], validCount: number): BulkProgress {
  return progressFromCounts(
    rows.map((r) => ({ state: r.state, errorCode: r.errorCode, count: 1 })),
    validCount,
  );
}

export function progressFromCounts(counts: RowCount[], validCount: number): BulkProgress {
  const sum = (match: (c: RowCount) => boolean) => counts.filter(match).reduce((n, c) => n + c.count, 0);
  const placed = sum((c) => c.state === "placed");
  const failed = sum((c) => c.state === "failed");
  const cancelled = sum((c) => c.state === "skipped" && c.errorCode === ROW_CANCELLED);
  return {
    toPlace: validCount,
    pending: sum((c) => c.state === "pending"),
    placing: sum((c) => c.state === "placing"),
    placed,
    failed,
    cancelled,
    settled: placed + failed + cancelled,
  };
}

export function readTotals(json: unknown): MoneyTotal[] {
  if (!Array.isArray(json)) return [];
  return json.filter((t): t is MoneyTotal => !!t && typeof t.currency === "string" && typeof t.totalMinor === "string");
}

/** A placed row's order still on its way: reserved, processing, or not yet in the mirror. */
export function isOrderOpen(status: string | null): boolean {
  return status === null || (OPEN_STATUSES as readonly string[]).includes(status);
}

export function toSummary(bulk: BulkOrder, progress: BulkProgress, ordersOpen: number): BulkOrderSummary {
  return {
    id: bulk.id,
    state: bulk.state as BulkState,
    fileName: bulk.fileName,
    createdAt: bulk.createdAt.toISOString(),
    rowCount: bulk.rowCount,
    validCount: bulk.validCount,
    totals: readTotals(bulk.totals),
    progress,
    ordersOpen,
  };
}

export function toRowView(row: BulkOrderRow, orderStatus: string | null, showPhone: boolean): BulkRowView {
  const cells = row.input as BulkCells;
  return {
    rowNumber: row.rowNumber,
    state: row.state as RowState,
    cells: { ...cells, phoneNumber: showPhone ? cells.phoneNumber : maskPhone(cells.phoneNumber) },
    productName: row.productName,
    optionLabel: row.optionLabel,
    quotedTotalMinor: row.quotedTotalMinor?.toString() ?? null,
    currency: row.currency,
    errors: (row.errors as FieldErrors | null) ?? null,
    orderId: row.orderId,
    orderStatus,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    correlationId: row.correlationId,
  };
}

/** A phone number is personal data: people other than the uploader see its last digits only. */
export function maskPhone(phone: string): string {
  return phone.length > 4 ? `${"•".repeat(Math.min(8, phone.length - 3))}${phone.slice(-3)}` : phone;
}
