import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { serviceConfig } from "@/lib/env";
import { minuteOf } from "@/lib/upstream/call-counts";
import { upstreamBudget, upstreamCallCounts } from "@/lib/upstream/service";
import { SHARE_REFUSED_ACTION } from "@/lib/settings/share-refused";

export const BUDGET_CHART_MINUTES = 60;

export type BudgetMinute = { minute: string; money: number; interactive: number; background: number };
/** One spender's calls over the last hour, by class; `who` is a person's email or a job's name. */
export type BudgetSpender = {
  who: string;
  kind: "person" | "job";
  money: number;
  interactive: number;
  background: number;
  lookups: number;
  /** Calls their share turned away (people only). */
  refused: number;
};
export type BudgetOverview = {
  limit: number;
  caps: { money: number; interactive: number; background: number };
  /** The busiest spenders of the last hour, most calls first. */
  topSpenders: BudgetSpender[];
  /** People whose share turned calls away in the last 24 hours (audited once a minute each), most often first. */
  shareAlerts: { who: string; minutes: number; lastAt: string }[];
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
  const [rows, caps, topSpenders, shareAlerts] = await Promise.all([
    db().upstreamCallMinute.findMany({ where: { minute: { gte: from } } }),
    upstreamBudget().caps(),
    topSpendersSince(from),
    shareAlertsSince(new Date(now - 86_400_000)),
  ]);
  const minutes: BudgetMinute[] = [];
  for (let t = from.getTime(); t <= now; t += 60_000)
    minutes.push({ minute: new Date(t).toISOString(), money: 0, interactive: 0, background: 0 });
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
      if (slot && (row.priority === "money" || row.priority === "interactive" || row.priority === "background"))
        slot[row.priority] += row.count;
    }
  }
  const lookups = totals.cacheHits + totals.cacheMisses;
  return {
    limit: serviceConfig().rateLimit,
    caps: { money: caps.money, interactive: caps.interactive, background: caps.background },
    topSpenders,
    shareAlerts,
    minutes,
    ...totals,
    cacheShare: lookups === 0 ? null : totals.cacheHits / lookups,
  };
}

const TOP_SPENDERS = 8;

/** The spenders' rows of the budget since `from` (lib/upstream/db-budget.ts keeps two hours), summed, with people's emails. */
async function topSpendersSince(from: Date): Promise<BudgetSpender[]> {
  const rows = await db().upstreamSpend.groupBy({
    by: ["spender"],
    where: { windowStart: { gte: from } },
    _sum: { money: true, interactive: true, background: true, lookups: true, refused: true },
  });
  const ranked = rows
    .map((r) => ({
      spender: r.spender,
      money: r._sum.money ?? 0,
      interactive: r._sum.interactive ?? 0,
      background: r._sum.background ?? 0,
      lookups: r._sum.lookups ?? 0,
      refused: r._sum.refused ?? 0,
    }))
    .sort((a, b) => b.money + b.interactive + b.background - (a.money + a.interactive + a.background) || b.refused - a.refused)
    .slice(0, TOP_SPENDERS);
  const staffIds = ranked.flatMap((r) => (r.spender.startsWith("staff:") ? [r.spender.slice(6)] : []));
  const staff = staffIds.length
    ? await db().staff.findMany({ where: { id: { in: staffIds } }, select: { id: true, email: true } })
    : [];
  const emails = new Map(staff.map((s) => [s.id, s.email]));
  return ranked.map(({ spender, ...counts }) =>
    spender.startsWith("staff:")
      ? { who: emails.get(spender.slice(6)) ?? "a removed person", kind: "person" as const, ...counts }
      : { who: spender.replace(/^job:/, ""), kind: "job" as const, ...counts },
  );
}

async function shareAlertsSince(since: Date): Promise<BudgetOverview["shareAlerts"]> {
  const rows = await db().auditEvent.groupBy({
    by: ["actorEmail"],
    where: { action: SHARE_REFUSED_ACTION, at: { gte: since } },
    _count: { _all: true },
    _max: { at: true },
  });
  return rows
    .map((r) => ({ who: r.actorEmail ?? "unknown", minutes: r._count._all, lastAt: (r._max.at ?? since).toISOString() }))
    .sort((a, b) => b.minutes - a.minutes);
}
