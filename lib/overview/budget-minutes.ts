import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { serviceConfig } from "@/lib/env";
import { minuteOf } from "@/lib/upstream/call-counts";
import { upstreamBudget, upstreamCallCounts } from "@/lib/upstream/service";

export const BUDGET_CHART_MINUTES = 60;

export type BudgetMinute = { minute: string; interactive: number; background: number };
export type BudgetOverview = {
  limit: number;
  caps: { interactive: number; background: number };
  /** The last 60 whole minutes and the current one, oldest first: calls sent, by priority. */
  minutes: BudgetMinute[];
  /** Over the same hour. */
  sent: number;
  throttled: number;
  waited: number;
  cacheHits: number;
  cacheMisses: number;
  /** Share of cacheable reads (catalog, balances, deposit address) answered without an upstream call; null with none. */
  cacheShare: number | null;
};

/**
 * The upstream budget over the last hour, from the per-minute counts every instance writes
 * (lib/upstream/call-counts.ts): a handful of rows read by their primary key's range.
 * This process's unwritten counts are written first, so an admin sees their own last calls.
 */
export async function getBudgetOverview(actor: Actor, now = Date.now()): Promise<BudgetOverview> {
  assertCan(actor, "settings.read");
  await upstreamCallCounts().flush();
  const from = minuteOf(now - BUDGET_CHART_MINUTES * 60_000);
  const rows = await db().upstreamCallMinute.findMany({ where: { minute: { gte: from } } });
  const minutes: BudgetMinute[] = [];
  for (let t = from.getTime(); t <= now; t += 60_000)
    minutes.push({ minute: new Date(t).toISOString(), interactive: 0, background: 0 });
  const totals = { sent: 0, throttled: 0, waited: 0, cacheHits: 0, cacheMisses: 0 };
  for (const row of rows) {
    if (row.outcome === "cache_hit") totals.cacheHits += row.count;
    else if (row.outcome === "cache_miss") totals.cacheMisses += row.count;
    else if (row.outcome === "waited") totals.waited += row.count;
    else {
      // Every other outcome is an attempt sent upstream: it used the budget, whatever the answer.
      totals.sent += row.count;
      if (row.outcome === "throttled") totals.throttled += row.count;
      const slot = minutes[Math.round((row.minute.getTime() - from.getTime()) / 60_000)];
      if (slot && (row.priority === "interactive" || row.priority === "background")) slot[row.priority] += row.count;
    }
  }
  const lookups = totals.cacheHits + totals.cacheMisses;
  return {
    limit: serviceConfig().rateLimit,
    caps: upstreamBudget().caps,
    minutes,
    ...totals,
    cacheShare: lookups === 0 ? null : totals.cacheHits / lookups,
  };
}
