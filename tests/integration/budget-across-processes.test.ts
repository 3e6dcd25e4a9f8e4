import { describe, expect, test } from "vitest";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { db } from "@/lib/db/client";

/**
 * The request budget is shared by every app instance and worker through the database
 * alone. Two processes of their own (not two budget objects in one) ask for more than the
 * limit at the same moment: together they get at most the limit in any window.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the request budget across processes", () => {
  test("two processes asking for 15 slots each under a limit of 12 get 11 between them in a window (one kept as margin)", async () => {
    const now = Date.now();
    const windows = [0, 1].map((i) => new Date(now - (now % 60_000) + i * 60_000));
    for (const windowStart of windows)
      await db().rateBudget.upsert({ where: { windowStart }, create: { windowStart, used: 0 }, update: { used: 0 } });

    const takeSlots = () =>
      run(
        path.join(ROOT, "node_modules/.bin/tsx"),
        ["--conditions=react-server", "tests/integration/take-budget-slots.ts", "12", "15", "1500"],
        {
          cwd: ROOT,
          env: process.env,
        },
      ).then(({ stdout }) => JSON.parse(stdout.trim().split("\n").at(-1)!) as number);
    const [first, second] = await Promise.all([takeSlots(), takeSlots()]);

    // The two windows the run can fall in (it takes a few seconds), as the budget charged them.
    const used = (await db().rateBudget.findMany({ where: { windowStart: { in: windows } } })).map((row) => row.used);
    // Every slot either process got was charged, and nothing else was.
    expect(used.reduce((sum, n) => sum + n, 0)).toBe(first + second);
    // Alone, either would have taken 11 (it asked for 15). Together no window gave out more than
    // the interactive cap (12 less a margin of 1), and the cap, not something else, stopped them:
    // a window that the run spans gives out the rest in the next one, which fills.
    expect(first + second).toBeGreaterThanOrEqual(11);
    expect(Math.max(...used)).toBe(11);
  });

  test("one person's share holds across processes: two processes of the same person get the share between them", async () => {
    const staffId = `share-${Date.now()}`;
    const takeSlots = () =>
      run(
        path.join(ROOT, "node_modules/.bin/tsx"),
        ["--conditions=react-server", "tests/integration/take-budget-slots.ts", "1000", "20", "1500", staffId, "15"],
        { cwd: ROOT, env: process.env },
      ).then(({ stdout }) => JSON.parse(stdout.trim().split("\n").at(-1)!) as number);
    const [first, second] = await Promise.all([takeSlots(), takeSlots()]);
    const rows = await db().upstreamSpend.findMany({ where: { spender: `staff:${staffId}` } });
    // A share is refused at once (not waited out), so every slot came from one window, or two if
    // the run spanned a minute's end; no window gave the person more than their 15.
    expect(Math.max(...rows.map((r) => r.interactive))).toBe(15);
    expect(first + second).toBe(rows.reduce((sum, r) => sum + r.interactive, 0));
    expect(first + second).toBeLessThanOrEqual(15 * rows.length);
  });
});
