import { afterAll, expect, test } from "vitest";
import { freePort, startEmbeddedDb, type EmbeddedDb } from "@/lib/db/embedded";

/**
 * lib/db/client.ts's `sqlQuery` keeps connections of its own (the webhook inbox insert). A
 * database that goes away while they sit idle must not take the process down with it, and the
 * next statement must work once the database is back. A database of this file's own, so that
 * it can be stopped; the module reads DATABASE_URL when first used.
 */
const port = await freePort();
let database: EmbeddedDb = await startEmbeddedDb({ port });
process.env.DATABASE_URL = database.url;
const { sqlQuery } = await import("@/lib/db/client");

afterAll(() => database.stop());

test("one statement prepared on every connection of the pool at once: each answers its own call", async () => {
  // On the embedded database the connections share one session, where two connections
  // preparing under one name would collide (42P05); each names its own.
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) => sqlQuery<{ n: number }>("SELECT $1::int * 10 AS n", [i])),
  );
  expect(answers).toEqual(Array.from({ length: 40 }, (_, i) => [{ n: i * 10 }]));
});

test("an idle connection lost with its database does not end the process, and the next statement reconnects", async () => {
  expect(await sqlQuery<{ n: number }>("SELECT $1::int + 1 AS n", [1])).toEqual([{ n: 2 }]);

  // The pool's idle connection is closed by the server going away: the pool reports it as an
  // error event, which ends the process (and fails this file) when nothing listens for it.
  await database.stop();
  await expect(sqlQuery("SELECT 1", [])).rejects.toThrow();

  database = await startEmbeddedDb({ port });
  expect(await sqlQuery<{ n: number }>("SELECT $1::int * 3 AS n", [2])).toEqual([{ n: 6 }]);
});

test("a timestamp without time zone comes back as the UTC instant Prisma stores, whatever this process's zone", async () => {
  // Prisma writes every DateTime as UTC into a timestamp without time zone; node-postgres alone
  // would read one in the process's zone, so a session's times would move by the zone's offset.
  const zone = process.env.TZ;
  process.env.TZ = "America/New_York";
  try {
    const [row] = await sqlQuery<{ stored: Date; roundTrip: Date }>(
      `SELECT '2026-03-08 06:30:00.125'::timestamp AS stored, $1::timestamptz AT TIME ZONE 'UTC' AS "roundTrip"`,
      ["2026-11-25T23:59:59.999Z"],
    );
    expect(row!.stored.toISOString()).toBe("2026-03-08T06:30:00.125Z");
    expect(row!.roundTrip.toISOString()).toBe("2026-11-25T23:59:59.999Z");
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});
