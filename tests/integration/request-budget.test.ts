import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { createDbBudget } from "@/lib/upstream/db-budget";

describe("workspace-wide request budget", () => {
  test("concurrent callers all get a slot while the window has room", async () => {
    const budget = createDbBudget(100_000);
    const started = Date.now();
    await Promise.all(Array.from({ length: 30 }, () => budget.acquire("interactive", Date.now() + 5_000)));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("a full window refuses more before the deadline; background work stops earlier than people", async () => {
    const now = Date.now();
    const windowStart = new Date(now - (now % 60_000));
    const budget = createDbBudget(8);
    await db().rateBudget.upsert({ where: { windowStart }, create: { windowStart, used: 0 }, update: { used: 0 } });
    // Background stops at three quarters of the limit (6 of 8)…
    for (let i = 0; i < 6; i++) await budget.acquire("background", Date.now() + 1_000);
    await expect(budget.acquire("background", Date.now() + 50)).rejects.toThrow();
    // …so interactive callers still have room (up to 7 of 8; one kept as margin).
    await budget.acquire("interactive", Date.now() + 1_000);
    await expect(budget.acquire("interactive", Date.now() + 50)).rejects.toThrow();
    expect(await budget.usedThisMinute()).toBe(7);
  });
});
