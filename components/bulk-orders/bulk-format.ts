import { utcTime } from "@/components/ui/utc-time";
import { formatMoney } from "@/lib/money";
import type { MoneyTotal } from "@/lib/bulk-orders/bulk-view";

/** "$412.50", or "$412.50 + €30.00" when a file spans currencies (never added together). */
export function formatTotals(totals: MoneyTotal[]): string {
  if (totals.length === 0) return "—";
  return totals.map((t) => formatMoney(t.totalMinor, t.currency)).join(" + ");
}

/** ISO instant → "2026-11-22 03:04 UTC", or "—" when there is none. */
export function utcMinute(iso: string | null): string {
  return iso ? utcTime(iso) : "—";
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
