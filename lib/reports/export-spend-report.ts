import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { streamCsv } from "@/lib/csv-stream";
import { currencyExponent, toDecimalString } from "@/lib/money";
import { groupLabel } from "./group-labels";
import { reportScope, sum, type SpendSums } from "./get-spend-report";
import { isoDay, reportBuckets, reportPeriod, type ReportFilter } from "./report-period";
import { readSpendCells } from "./spend-rows";

const HEADER = [
  "row",
  "periodStart",
  "periodEnd",
  "groupBy",
  "group",
  "groupId",
  "currency",
  "orders",
  "fulfilled",
  "inProgress",
  "failed",
  "refunded",
  "netSpend",
];
const DAY_MS = 86_400_000;

/**
 * The spend report as CSV: a row per bucket of time, group and currency (the page's figures),
 * then a total row per currency for the whole period. Streamed a bucket at a time, so memory
 * stays flat and the first bucket's rows go out as soon as they are read; only the per-currency
 * totals are carried along. Amounts are exact decimals of the currency's minor units.
 */
export async function exportSpendReportCsv(actor: Actor, filter: ReportFilter, now = new Date()) {
  const scope = reportScope(actor);
  const period = reportPeriod(filter, now);
  const buckets = reportBuckets(period, filter.grain);
  const totals = new Map<string, SpendSums>();
  return streamCsv<number>(HEADER, async (after) => {
    const index = after ?? 0;
    const bucket = buckets[index];
    if (!bucket) {
      const rows = [...totals.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, total]) => cellsRow("total", period.from, period.to, "all", "", currency, total));
      return { rows, next: null };
    }
    const cells = await readSpendCells(scope, bucket, filter.grain, filter.by);
    for (const cell of cells) totals.set(cell.currency, sum([totals.get(cell.currency) ?? sum([]), cell]));
    const last = isoDay(new Date(bucket.end.getTime() - DAY_MS));
    const rows = cells.map((c) =>
      cellsRow(
        "group",
        isoDay(bucket.start),
        last,
        filter.by,
        groupLabel(filter.by, c.key, c.label),
        c.currency,
        sum([c]),
        c.key,
      ),
    );
    return { rows, next: index + 1 };
  });
}

function cellsRow(
  row: "group" | "total",
  from: string,
  to: string,
  by: string,
  group: string,
  currency: string,
  s: SpendSums,
  groupId = "",
): string[] {
  const money = (minor: bigint) => toDecimalString(minor, currencyExponent(currency));
  return [
    row,
    from,
    to,
    by,
    group,
    groupId,
    currency,
    String(s.orders),
    money(s.fulfilledMinor),
    money(s.inProgressMinor),
    money(s.failedMinor),
    money(s.refundedMinor),
    money(s.netMinor),
  ];
}
