import { afterAll, beforeAll, describe, expect, test } from "vitest";
import pg from "pg";
import { startEmbeddedDb, type EmbeddedDb } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

/**
 * The embedded PGlite serves every connection through one shared session. Concurrent
 * clients must still each see their own statements and results (lib/db/pglite-session-queue.ts).
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
});
