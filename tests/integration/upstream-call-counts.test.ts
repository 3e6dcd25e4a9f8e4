import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { createDbBudget } from "@/lib/upstream/db-budget";
import { minuteOf } from "@/lib/upstream/call-counts";
import { pruneCallCounts } from "@/lib/upstream/jobs";
import { upstream, upstreamCallCounts } from "@/lib/upstream/service";
import { control, eventually, upstreamGet } from "../support/sandbox";

/** The rows written, as "priority outcome" → count, and the minutes they fell in. */
async function countsNow() {
  await upstreamCallCounts().flush();
  const rows = await db().upstreamCallMinute.findMany();
  const totals: Record<string, number> = {};
  for (const row of rows) totals[`${row.priority} ${row.outcome}`] = (totals[`${row.priority} ${row.outcome}`] ?? 0) + row.count;
  return { totals, minutes: new Set(rows.map((r) => r.minute.getTime())) };
}

/** Not in the last seconds of a minute, so that a pair of calls shares one window. */
const awayFromMinuteEnd = () => eventually(async () => Date.now() % 60_000 < 50_000, 15_000, 200);

describe("per-minute records of upstream calls", () => {
  beforeEach(async () => {
    await upstreamCallCounts().flush();
    await db().upstreamCallMinute.deleteMany({});
  });
  afterAll(async () => {
    await control("PUT", "/rate-limit", { perMinute: 100_000 });
  });

  test("reads served from the read cache and callers the budget held back are counted too", async () => {
    const query = { query: `counts-${Date.now()}` };
    await upstream().listProducts(query);
    await upstream().listProducts(query);
    await upstream().listProducts(query);

    // A budget whose window is already full: the caller is counted once as having waited.
    const { waited } = upstreamCallCounts();
    const budget = createDbBudget(8, { shares: { moneyReserve: 0, personCalls: 8, personLookups: 8 }, onWait: waited });
    const now = Date.now();
    const windowStart = new Date(now - (now % 60_000));
    await db().rateBudget.upsert({ where: { windowStart }, create: { windowStart, used: 8 }, update: { used: 8 } });
    await expect(budget.acquire({ priority: "background" }, Date.now() + 50)).rejects.toThrow();
    await db().rateBudget.update({ where: { windowStart }, data: { used: 0 } });

    const { totals } = await countsNow();
    expect(totals).toMatchObject({ "any cache_hit": 2, "any cache_miss": 1, "interactive ok": 1, "background waited": 1 });
  });

  test("the worker's prune drops counts older than the retention and keeps the recent ones", async () => {
    const now = new Date();
    await db().upstreamCallMinute.createMany({
      data: [
        { minute: minuteOf(now.getTime() - 4 * 86_400_000), priority: "interactive", outcome: "ok", count: 3 },
        { minute: minuteOf(now.getTime() - 3_600_000), priority: "interactive", outcome: "ok", count: 5 },
      ],
    });
    expect(await pruneCallCounts(now)).toBe(1);
    expect((await db().upstreamCallMinute.findMany()).map((r) => r.count)).toEqual([5]);
  });

  // Last: the client holds every call of this process until the 429's Retry-After (the rest of
  // the sandbox's minute), so a test after it in this file would find the upstream paused.
  test("calls through the real budget land in their minute by priority and outcome, a 429 from the sandbox as throttled", async () => {
    await awayFromMinuteEnd();
    const before = Date.now();
    await upstream().getBalances({ priority: "interactive" });
    await upstream().listOrders({ limit: 1 }, { priority: "background" });
    await expect(upstream().getOrder("ord_does_not_exist")).rejects.toMatchObject({ code: "not_found" });
    // The sandbox allows one call this minute; a direct call takes it, so ours is refused with 429.
    await control("PUT", "/rate-limit", { perMinute: 1 });
    await upstreamGet("/wallet/balance");
    // Our answer to the person is a 429 with a wait, not "the Issuing Service is not answering".
    await expect(upstream().getBalances({ priority: "interactive", deadlineMs: 800 })).rejects.toMatchObject({
      code: "rate_limited",
      status: 429,
    });
    await control("PUT", "/rate-limit", { perMinute: 100_000 });
    const after = Date.now();

    const { totals, minutes } = await countsNow();
    expect(totals).toEqual({ "interactive ok": 1, "background ok": 1, "interactive rejected": 1, "interactive throttled": 1 });
    for (const minute of minutes) {
      expect(minute).toBeGreaterThanOrEqual(minuteOf(before).getTime());
      expect(minute).toBeLessThanOrEqual(minuteOf(after).getTime());
    }
  });
});
