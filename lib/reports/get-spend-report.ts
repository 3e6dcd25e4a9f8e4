import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { groupLabel } from "./group-labels";
import { reportBuckets, reportPeriod, truncate, type ReportBucket, type ReportFilter, type ReportPeriod } from "./report-period";
import { readSpendCells, type SpendCell, type SpendScope } from "./spend-rows";
import { tieToWallet, type WalletTie } from "./tie-to-wallet";

/** Sums of orders, apart by outcome; net = fulfilled + in progress (what left the wallet and stayed out). */
export type SpendSums = {
  orders: number;
  fulfilledMinor: bigint;
  inProgressMinor: bigint;
  failedMinor: bigint;
  refundedMinor: bigint;
  netMinor: bigint;
};
export type SpendGroup = SpendSums & { key: string; label: string };
/** One currency's part of the report: its total, its groups (largest net first) and its chart. */
export type CurrencySpend = {
  currency: string;
  total: SpendSums;
  groups: SpendGroup[];
  /** Per bucket, the net spend of the chart's groups: the largest few, then "Other". */
  chart: { series: string[]; bars: { label: string; values: bigint[] }[] };
  tie: WalletTie | null;
};
export type SpendReport = {
  period: ReportPeriod;
  filter: ReportFilter;
  /** Whose orders: the workspace's, or only the reader's own. */
  scope: "workspace" | "own";
  currencies: CurrencySpend[];
};

/** The chart stacks this many groups; the rest are one "Other" band. */
export const CHART_GROUPS = 5;

/**
 * The spend report of a period: every order of the workspace for finance and admins, only the
 * reader's own orders for a buyer (the scope is decided here, so the page and the CSV agree).
 * A workspace report ties each currency's total to the wallet's movements.
 */
export async function getSpendReport(actor: Actor, filter: ReportFilter, now = new Date()): Promise<SpendReport> {
  const scope = reportScope(actor);
  const period = reportPeriod(filter, now);
  const cells = await readSpendCells(scope, period, filter.grain, filter.by);
  const buckets = reportBuckets(period, filter.grain);
  const byCurrency = groupBy(cells, (c) => c.currency);
  const currencies = [...byCurrency.keys()]
    .sort()
    .map((currency) => currencySpend(currency, byCurrency.get(currency)!, buckets, filter));
  if (scope.placedById === null) {
    const ties = await tieToWallet(
      period,
      currencies.map((c) => ({
        currency: c.currency,
        netMinor: c.total.netMinor,
        failedOrRefundedMinor: c.total.failedMinor + c.total.refundedMinor,
      })),
    );
    for (const tie of ties) {
      const found = currencies.find((c) => c.currency === tie.currency);
      if (found) found.tie = tie;
      else currencies.push(emptyCurrency(tie, period, filter));
    }
    currencies.sort((a, b) => a.currency.localeCompare(b.currency));
  }
  return { period, filter, scope: scope.placedById === null ? "workspace" : "own", currencies };
}

/** Finance and admins read the workspace; anyone else holding reports.read, their own orders only. */
export function reportScope(actor: Actor): SpendScope {
  assertCan(actor, "reports.read");
  return { placedById: can(actor.roles, "reports.workspace") ? null : actor.staffId };
}

export function sum(cells: readonly Omit<SpendCell, "bucket" | "key" | "label" | "currency">[]): SpendSums {
  const total = { orders: 0, fulfilledMinor: 0n, inProgressMinor: 0n, failedMinor: 0n, refundedMinor: 0n, netMinor: 0n };
  for (const c of cells) {
    total.orders += c.orders;
    total.fulfilledMinor += c.fulfilledMinor;
    total.inProgressMinor += c.inProgressMinor;
    total.failedMinor += c.failedMinor;
    total.refundedMinor += c.refundedMinor;
    total.netMinor += c.fulfilledMinor + c.inProgressMinor;
  }
  return total;
}

/** One currency's total, its groups (largest net first) and its chart: the largest groups stacked, the rest "Other". */
function currencySpend(currency: string, cells: SpendCell[], buckets: ReportBucket[], filter: ReportFilter): CurrencySpend {
  const groups = [...groupBy(cells, (c) => c.key).values()]
    .map((ofGroup) => ({
      key: ofGroup[0]!.key,
      label: groupLabel(filter.by, ofGroup[0]!.key, ofGroup[0]!.label),
      ...sum(ofGroup),
    }))
    .sort((a, b) => (b.netMinor === a.netMinor ? a.label.localeCompare(b.label) : b.netMinor > a.netMinor ? 1 : -1));
  const shown = groups.slice(0, CHART_GROUPS);
  const other = groups.length > CHART_GROUPS;
  const bucketAt = new Map(buckets.map((b, i) => [truncate(b.start, filter.grain).getTime(), i]));
  const bars = buckets.map((bucket) => ({
    label: bucket.label,
    values: new Array<bigint>(shown.length + (other ? 1 : 0)).fill(0n),
  }));
  for (const cell of cells) {
    const bar = bars[bucketAt.get(cell.bucket.getTime()) ?? -1];
    const band = shown.findIndex((g) => g.key === cell.key);
    if (bar) bar.values[band === -1 ? shown.length : band]! += cell.fulfilledMinor + cell.inProgressMinor;
  }
  const series = shown.map((g) => g.label);
  return { currency, total: sum(cells), groups, chart: { series: other ? [...series, "Other"] : series, bars }, tie: null };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** A currency with no order recorded in the period, only money coming back for earlier ones. */
function emptyCurrency(tie: WalletTie, period: ReportPeriod, filter: ReportFilter): CurrencySpend {
  return {
    currency: tie.currency,
    total: sum([]),
    groups: [],
    chart: { series: [], bars: reportBuckets(period, filter.grain).map((b) => ({ label: b.label, values: [] })) },
    tie,
  };
}
