import { afterAll, beforeAll, describe, expect, test } from "vitest";
import pg from "pg";
import { startEmbeddedDb, type EmbeddedDb } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

/**
 * The embedded PGlite serves every connection through one shared session. Concurrent
 * clients must still each see their own statements and results (pglite-socket's patched query
 * queue: patches/, tests/integration/pglite-socket-patch.test.ts).
 */
describe("embedded PostgreSQL under concurrent connections", () => {
  let embedded: EmbeddedDb;
  let pool: pg.Pool;

  beforeAll(async () => {
    embedded = await startEmbeddedDb();
    await migrate(embedded.url);
    pool = new pg.Pool({ connectionString: embedded.url, max: 8 });
  });
  afterAll(async () => {
    await pool.end();
    await embedded.stop();
  });

  test("prepared statements and transactions of many connections never mix", async () => {
    const window = new Date("2026-01-01T00:00:00Z");
    let emptyAnswers = 0;
    const upsert = async () => {
      const result = await pool.query(
        `INSERT INTO "RateBudget" ("windowStart", "used") VALUES ($1, 1)
         ON CONFLICT ("windowStart") DO UPDATE SET "used" = "RateBudget"."used" + 1 WHERE "RateBudget"."used" < $2 RETURNING "used"`,
        [window, 1_000_000],
      );
      if (result.rows.length === 0) emptyAnswers += 1;
    };
    const transaction = async (i: number) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query(`INSERT INTO "Setting" (key, value, "updatedAt") VALUES ($1, '1', now())`, [`concurrency-${i}`]);
        await client.query(i % 10 === 0 ? "ROLLBACK" : "COMMIT");
      } finally {
        client.release();
      }
    };
    await Promise.all(Array.from({ length: 600 }, (_, i) => (i % 2 ? upsert() : transaction(i))));
    expect(emptyAnswers).toBe(0);
    expect((await pool.query(`SELECT used FROM "RateBudget" WHERE "windowStart" = $1`, [window])).rows[0].used).toBe(300);
    expect(Number((await pool.query(`SELECT count(*) FROM "Setting" WHERE key LIKE 'concurrency-%'`)).rows[0].count)).toBe(240);
  });

  // A query's messages run together at its Sync; an error part-way must answer that query only.
  test("a statement that fails answers its error, and its connection goes on", async () => {
    const client = await pool.connect();
    try {
      await expect(client.query("SELECT $1::int / 0", [1])).rejects.toThrow(/division by zero/);
      await expect(client.query("SELEC $1::int", [1])).rejects.toThrow(/syntax error/);
      expect((await client.query("SELECT $1::int + 1 AS n", [1])).rows).toEqual([{ n: 2 }]);

      await client.query("BEGIN");
      await client.query(`INSERT INTO "Setting" (key, value, "updatedAt") VALUES ($1, '1', now())`, ["failing-tx"]);
      await expect(
        client.query(`INSERT INTO "Setting" (key, value, "updatedAt") VALUES ($1, '2', now())`, ["failing-tx"]),
      ).rejects.toThrow(/duplicate key/);
      await expect(client.query("SELECT $1::int", [1])).rejects.toThrow(/current transaction is aborted/);
      await client.query("ROLLBACK");
      expect((await client.query(`SELECT count(*)::int AS n FROM "Setting" WHERE key = $1`, ["failing-tx"])).rows).toEqual([
        { n: 0 },
      ]);
    } finally {
      client.release();
    }
  });

  test("rows read a few at a time (Execute with a limit, then Flush) come back whole beside other connections", async () => {
    const paged = async () => {
      const client = await pool.connect();
      try {
        // `rows` makes node-postgres send Flush instead of Sync and ask again after each PortalSuspended.
        const result = await client.query({
          text: "SELECT g FROM generate_series(1, $1::int) AS g",
          values: [7],
          rows: 2,
        } as pg.QueryConfig);
        return result.rows.map((r: { g: number }) => r.g);
      } finally {
        client.release();
      }
    };
    const others = Array.from({ length: 20 }, (_, i) => pool.query("SELECT $1::int AS i", [i]));
    const pages = await Promise.all([paged(), paged(), paged()]);
    for (const rows of pages) expect(rows).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await Promise.all(others)).map((r) => r.rows[0].i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
