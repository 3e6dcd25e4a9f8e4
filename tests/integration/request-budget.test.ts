import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { BudgetRefusal, type Spender } from "@/lib/upstream/client";
import { budgetCaps, createDbBudget, type BudgetShares } from "@/lib/upstream/db-budget";
import { serviceConfig } from "@/lib/env";
import { addWatch } from "@/lib/catalog-watch/manage-watches";
import { runWatchPass, WATCH_JOB } from "@/lib/catalog-watch/run-watch-pass";
import { spentBy, wireUpstream } from "@/lib/upstream/service";
import { makeStaff } from "../support/db";

const NO_SHARES: BudgetShares = { moneyReserve: 0, personCalls: 100_000, personLookups: 100_000 };

/**
 * A window of the budget's own, empty: the tests below fill it on purpose. Started with at
 * least 15 s of the minute left, so a test's calls all fall in it.
 */
async function emptyWindow(): Promise<Date> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  const now = Date.now();
  const windowStart = new Date(now - (now % 60_000));
  await db().rateBudget.upsert({ where: { windowStart }, create: { windowStart, used: 0 }, update: { used: 0 } });
  // And nobody's spend in it: a file run before this one in the same minute (the catalog watch's) leaves its rows.
  await db().upstreamSpend.deleteMany({ where: { windowStart } });
  return windowStart;
}

/** What the budget refused with, or "taken". */
async function outcome(promise: Promise<void>): Promise<"taken" | BudgetRefusal["reason"]> {
  try {
    await promise;
    return "taken";
  } catch (error) {
    if (error instanceof BudgetRefusal) return error.reason;
    throw error;
  }
}

const person = (): Spender => ({ kind: "person", staffId: `s-${randomUUID()}`, email: "someone@test.local" });

describe("workspace-wide request budget", () => {
  test("concurrent callers all get a slot while the window has room", async () => {
    const budget = createDbBudget(100_000, { shares: NO_SHARES });
    const started = Date.now();
    await Promise.all(Array.from({ length: 30 }, () => budget.acquire({ priority: "interactive" }, Date.now() + 5_000)));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("a full window refuses more before the deadline; background work stops earlier than people", async () => {
    await emptyWindow();
    const budget = createDbBudget(8, { shares: NO_SHARES });
    // Background stops at three quarters of the limit (6 of 8)…
    for (let i = 0; i < 6; i++) await budget.acquire({ priority: "background" }, Date.now() + 1_000);
    expect(await outcome(budget.acquire({ priority: "background" }, Date.now() + 50))).toBe("window");
    // …so interactive callers still have room (up to 7 of 8; one kept as margin).
    await budget.acquire({ priority: "interactive" }, Date.now() + 1_000);
    expect(await outcome(budget.acquire({ priority: "interactive" }, Date.now() + 50))).toBe("window");
    expect(await budget.usedThisMinute()).toBe(7);
  });

  test("reads never take the money class's reserve: an order goes through a minute that reads have filled", async () => {
    await emptyWindow();
    const shares = { ...NO_SHARES, moneyReserve: 24 };
    expect(budgetCaps(120, shares)).toEqual({ money: 118, interactive: 94, background: 90, lookup: 90 });
    const budget = createDbBudget(120, { shares });
    const reads = await Promise.all(
      Array.from({ length: 110 }, () => outcome(budget.acquire({ priority: "interactive", by: person() }, Date.now() + 50))),
    );
    expect(reads.filter((r) => r === "taken")).toHaveLength(94);
    const orders = await Promise.all(
      Array.from({ length: 24 }, () => outcome(budget.acquire({ priority: "money", by: person() }, Date.now() + 50))),
    );
    expect(orders.filter((r) => r === "taken")).toHaveLength(24);
    expect(await budget.usedThisMinute()).toBe(118);
  });

  test("a person past their share is refused at once, counted once a minute, and nobody else notices", async () => {
    const windowStart = await emptyWindow();
    const refusals: boolean[] = [];
    const budget = createDbBudget(120, {
      shares: { moneyReserve: 24, personCalls: 30, personLookups: 10 },
      onShareRefused: (_by, first) => refusals.push(first),
    });
    const flooder = person();
    const started = Date.now();
    const flood = await Promise.all(
      Array.from({ length: 60 }, () => outcome(budget.acquire({ priority: "interactive", by: flooder }, Date.now() + 30_000))),
    );
    // Refused without waiting for the next minute, though the deadline allowed it.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(flood.filter((r) => r === "taken")).toHaveLength(30);
    expect(flood.filter((r) => r === "share")).toHaveLength(30);
    expect(refusals.filter(Boolean)).toHaveLength(1);
    expect(refusals).toHaveLength(30);

    // Another person reads as before, and the flooder's own order still goes through.
    expect(await outcome(budget.acquire({ priority: "interactive", by: person() }, Date.now() + 50))).toBe("taken");
    expect(await outcome(budget.acquire({ priority: "money", by: flooder }, Date.now() + 50))).toBe("taken");
    const row = await db().upstreamSpend.findUnique({
      where: { windowStart_spender: { windowStart, spender: `staff:${(flooder as { staffId: string }).staffId}` } },
    });
    expect(row).toMatchObject({ interactive: 30, money: 1, refused: 30 });
  });

  test("lookups of unknown ids have a smaller share of their own, and stop when the minute is busy", async () => {
    await emptyWindow();
    const budget = createDbBudget(120, { shares: { moneyReserve: 24, personCalls: 30, personLookups: 10 } });
    const someone = person();
    const lookups = await Promise.all(
      Array.from({ length: 15 }, () =>
        outcome(budget.acquire({ priority: "interactive", by: someone, lookup: true }, Date.now() + 50)),
      ),
    );
    expect(lookups.filter((r) => r === "taken")).toHaveLength(10);
    // Their other reads still have the rest of the share (30 less the 10 lookups).
    const reads = await Promise.all(
      Array.from({ length: 25 }, () => outcome(budget.acquire({ priority: "interactive", by: someone }, Date.now() + 50))),
    );
    expect(reads.filter((r) => r === "taken")).toHaveLength(20);

    // A busy minute (past the background cap of 90) leaves lookups to the next one.
    for (let i = 0; i < 60; i++) await budget.acquire({ priority: "interactive" }, Date.now() + 1_000);
    expect(await budget.usedThisMinute()).toBe(90);
    expect(await outcome(budget.acquire({ priority: "interactive", by: person(), lookup: true }, Date.now() + 50))).toBe(
      "window",
    );
    expect(await outcome(budget.acquire({ priority: "interactive", by: person() }, Date.now() + 50))).toBe("taken");
  });

  test("a patient caller past their share waits for the next minute instead of failing", async () => {
    await emptyWindow();
    const budget = createDbBudget(120, { shares: { moneyReserve: 0, personCalls: 2, personLookups: 2 } });
    const someone = person();
    await budget.acquire({ priority: "interactive", by: someone }, Date.now() + 50);
    await budget.acquire({ priority: "interactive", by: someone }, Date.now() + 50);
    // With too little time left for the next minute, even a patient caller is told its share is used.
    expect(await outcome(budget.acquire({ priority: "interactive", by: someone, patient: true }, Date.now() + 10))).toBe("share");
  });

  test("the catalog watch's reads are background calls of its own, and all go through while a person floods reads past their share", async () => {
    const windowStart = await emptyWindow();
    // A client as an app process wires it, on a limit of 40 a minute: a person's share is 10 (25 %).
    const client = wireUpstream({ ...serviceConfig(), rateLimit: 40, catalogTtlMs: 0 }).client;
    const buyer = await makeStaff(["buyer"]);
    for (const countryCode of ["US", "GB", "DE", "FR", "MX", "BR"])
      await addWatch(buyer, { productType: "phone-top-up", countryCode, workspace: false });
    const flooder = await makeStaff(["viewer"]);
    try {
      const flood = Array.from({ length: 30 }, (_, i) =>
        client.listProducts({ offset: i, limit: 1 }, { by: spentBy(flooder) }).then(
          () => "read",
          (error: { code?: string }) => error.code,
        ),
      );
      const [pass, outcomes] = await Promise.all([runWatchPass({ client, gapMs: 0 }), Promise.all(flood)]);

      const spent = await db().upstreamSpend.findMany({ where: { windowStart } });
      const job = spent.find((row) => row.spender === `job:${WATCH_JOB}`);
      // Every read of the pass went through, each counted once, as background, under the job's name.
      expect(pass.calls).toBeGreaterThanOrEqual(6);
      expect(job).toMatchObject({ background: pass.calls, interactive: 0, money: 0 });
      // The person was held to their share; the rest of their flood was refused, not queued ahead of the job.
      expect(outcomes.filter((o) => o === "read")).toHaveLength(10);
      expect(outcomes.filter((o) => o === "rate_limited")).toHaveLength(20);
      const caps = await wireUpstream({ ...serviceConfig(), rateLimit: 40 }).budget.caps();
      expect(job!.background).toBeLessThanOrEqual(caps.background);
    } finally {
      await db().catalogWatch.deleteMany({ where: { staffId: buyer.staffId } });
    }
  });

  test("the catalog watch waits for the next minute when this one's background share is used", { timeout: 90_000 }, async () => {
    // Fill this minute's background share (3 of a limit of 4), with time left to do it; the pass waits out the rest.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 4_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const now = Date.now();
    const busy = new Date(now - (now % 60_000));
    await db().rateBudget.upsert({ where: { windowStart: busy }, create: { windowStart: busy, used: 0 }, update: { used: 0 } });
    const other: Spender = { kind: "job", name: "someone-else" };
    const filler = createDbBudget(4, { shares: NO_SHARES });
    for (let i = 0; i < 3; i++) await filler.acquire({ priority: "background", by: other }, Date.now() + 1_000);

    const buyer = await makeStaff(["buyer"]);
    await addWatch(buyer, { productType: "esim", countryCode: "MX", workspace: false });
    try {
      const client = wireUpstream({ ...serviceConfig(), rateLimit: 4, catalogTtlMs: 0 }).client;
      const jobIn = async (windowStart: Date) =>
        (await db().upstreamSpend.findFirst({ where: { spender: `job:${WATCH_JOB}`, windowStart } }))?.background ?? 0;
      const before = await jobIn(busy);
      const pass = await runWatchPass({ client, gapMs: 0 });
      // Its read went through, in the next minute, not past the busy one's share.
      expect(pass.calls).toBe(1);
      expect(Date.now()).toBeGreaterThanOrEqual(busy.getTime() + 60_000);
      expect(await jobIn(busy)).toBe(before);
      expect(await jobIn(new Date(busy.getTime() + 60_000))).toBe(1);
    } finally {
      await db().catalogWatch.deleteMany({ where: { staffId: buyer.staffId } });
    }
  });
});
