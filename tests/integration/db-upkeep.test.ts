import { afterAll, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { upkeepWithoutAutovacuum } from "@/lib/db/upkeep";

const run = (sql: string) => db().$queryRawUnsafe<unknown[]>(sql);
const TABLE = "upkeep_probe";

afterAll(async () => {
  await db().$executeRawUnsafe(`DROP TABLE IF EXISTS ${TABLE}`);
});

test("the embedded database gets vacuumed and analyzed where rows changed; a real PostgreSQL is left to its autovacuum", async () => {
  await db().$executeRawUnsafe(`DROP TABLE IF EXISTS ${TABLE}`);
  await db().$executeRawUnsafe(`CREATE TABLE ${TABLE} (id int PRIMARY KEY, note text)`);
  await db().$executeRawUnsafe(`INSERT INTO ${TABLE} SELECT i, 'row ' || i FROM generate_series(1, 3000) i`);
  await db().$executeRawUnsafe(`SELECT pg_stat_force_next_flush()`);
  const [{ n }] = (await run(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum launcher'`)) as [
    { n: number },
  ];

  const done = await upkeepWithoutAutovacuum(run);

  if (n > 0) {
    expect(done).toEqual([]); // PostgreSQL's own autovacuum does it
    return;
  }
  expect(done).toContain(`VACUUM (ANALYZE) public.${TABLE}`);
  const [stats] = (await run(
    `SELECT last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname = '${TABLE}'`,
  )) as [{ vacuumed: boolean; analyzed: boolean }];
  expect(stats).toEqual({ vacuumed: true, analyzed: true });
  await db().$executeRawUnsafe(`SELECT pg_stat_force_next_flush()`);
  expect(await upkeepWithoutAutovacuum(run)).not.toContain(`VACUUM (ANALYZE) public.${TABLE}`);
});
