/**
 * Run as a process of its own by budget-across-processes.test.ts: takes up to `count`
 * interactive slots of a budget of `limit` a minute, all at once, each giving up after
 * `patienceMs`, and prints the window (epoch ms) of every slot it got as one JSON line.
 * Usage: tsx --conditions=react-server take-budget-slots.ts <limit> <count> <patienceMs>
 */
import { createDbBudget } from "@/lib/upstream/db-budget";
import { db } from "@/lib/db/client";

const [limit, count, patienceMs] = process.argv.slice(2).map(Number) as [number, number, number];
const budget = createDbBudget(limit);
const taken = await Promise.all(
  Array.from({ length: count }, () =>
    budget.acquire("interactive", Date.now() + patienceMs).then(
      () => Date.now() - (Date.now() % 60_000),
      () => null,
    ),
  ),
);
process.stdout.write(`${JSON.stringify(taken.filter((w) => w !== null))}\n`);
await db().$disconnect();
