import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { utcDayStart, utcMonthStart } from "@/lib/spend/spend-window";

/**
 * What "spend" means on the finance home page: the totals of mirrored orders the upstream
 * captured, i.e. orders that reached `fulfilled` (funds are captured on fulfilment) —
 * including those refunded since, because a refund is a credit of its own (the wallet and
 * the reconciliation show it), not an order that was never paid. Reserved, processing and
 * failed orders are not spend: their funds were only held, or released. Each order counts
 * on the UTC day the upstream created it (the mirror keeps no capture time, and capture
 * follows creation within minutes). A day after today (the upstream's clock runs ahead of
 * ours) counts as today: the order was placed today, and today, the month and the chart then
 * add up. Amounts are integer minor units, as strings.
 * The trigger of prisma/migrations/20261125200002_spend_days counts these same statuses.
 */
export const CAPTURED_STATUSES = ["fulfilled", "refunded"] as const;
export const SPEND_CHART_DAYS = 30;

const DAY_MS = 86_400_000;

export type SpendDay = { day: string; minor: string; orders: number };
export type CurrencySpend = { currency: string; todayMinor: string; monthMinor: string; days: SpendDay[] };
export type FinanceSpend = { from: string; to: string; currencies: CurrencySpend[] };

/** Spend today, this month and on each of the last 30 days, per currency (one grouped query). */
export async function getFinanceSpend(actor: Actor, now = new Date()): Promise<FinanceSpend> {
  assertCan(actor, "wallet.read");
  const today = utcDayStart(now);
  const chartFrom = new Date(today.getTime() - (SPEND_CHART_DAYS - 1) * DAY_MS);
  const monthFrom = utcMonthStart(now);
  const from = monthFrom < chartFrom ? monthFrom : chartFrom;
  // Thirty-odd rows of the SpendDay rollup, which a trigger on Order keeps (its migration
  // says how), not a month of orders (docs/decisions/0010-reads-at-100000-orders.md).
  const rows = await db().spendDay.findMany({ where: { day: { gte: from } } });
  const byCurrency = new Map<string, Map<number, { minor: bigint; orders: number }>>();
  for (const row of rows) {
    const days = byCurrency.get(row.currency) ?? new Map();
    if (row.orders === 0) continue; // every order of that day un-captured since (e.g. mirrored again as failed)
    const day = Math.min(row.day.getTime(), today.getTime());
    const sum = days.get(day) ?? { minor: 0n, orders: 0 };
    days.set(day, { minor: sum.minor + row.minor, orders: sum.orders + row.orders });
    byCurrency.set(row.currency, days);
  }
  const currencies = [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, days]) => {
      let month = 0n;
      for (const [day, value] of days) if (day >= monthFrom.getTime()) month += value.minor;
      const chart: SpendDay[] = [];
      for (let t = chartFrom.getTime(); t <= today.getTime(); t += DAY_MS) {
        const value = days.get(t);
        chart.push({
          day: new Date(t).toISOString().slice(0, 10),
          minor: (value?.minor ?? 0n).toString(),
          orders: value?.orders ?? 0,
        });
      }
      return {
        currency,
        todayMinor: (days.get(today.getTime())?.minor ?? 0n).toString(),
        monthMinor: month.toString(),
        days: chart,
      };
    });
  return { from: chartFrom.toISOString(), to: now.toISOString(), currencies };
}
