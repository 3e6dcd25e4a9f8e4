/**
 * Run as a process of its own by budget-across-processes.test.ts: takes up to `count`
 * interactive slots of a budget of `limit` a minute, all at once, each giving up after
 * `patienceMs`, and prints how many it got as one JSON line. (Not the window of each: a slot
 * taken just before a minute ends is granted just after it, so this process cannot tell which
 * window paid for it; the test reads that from the budget's rows.) With a staff id, the slots
 * are that person's, held to a share of `share` calls a minute.
 * Usage: tsx --conditions=react-server take-budget-slots.ts <limit> <count> <patienceMs> [<staffId> <share>]
 */
import { createDbBudget } from "@/lib/upstream/db-budget";
import { db } from "@/lib/db/client";

const [limitArg, countArg, patienceArg, staffId, shareArg] = process.argv.slice(2);
const [limit, count, patienceMs] = [limitArg, countArg, patienceArg].map(Number) as [number, number, number];
const budget = createDbBudget(limit, {
  shares: { moneyReserve: 0, personCalls: shareArg ? Number(shareArg) : limit, personLookups: limit },
});
const by = staffId ? ({ kind: "person", staffId } as const) : undefined;
const taken = await Promise.all(
  Array.from({ length: count }, () =>
    budget.acquire({ priority: "interactive", by }, Date.now() + patienceMs).then(
      () => true,
      () => false,
    ),
  ),
);
process.stdout.write(`${JSON.stringify(taken.filter(Boolean).length)}\n`);
await db().$disconnect();
