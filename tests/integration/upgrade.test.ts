import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { deriveKey } from "@/lib/crypto/derive-key";
import { openSecret } from "@/lib/crypto/seal";
import { checkTotp, totpCodeAt } from "@/lib/auth/second-factor/totp";
import { startEmbeddedDb } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { FIXTURE } from "../fixtures/previous-release";

/**
 * The upgrade drill: the database as the previous release leaves it (tests/fixtures/
 * previous-release.sql, made by scripts/upgrade-fixture.ts) takes this release's migrations
 * through the app's own migrate step, and nothing is lost. Runs on the embedded PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL is set (in a database of its own there).
 */
const root = path.resolve(import.meta.dirname, "../..");
const migrationsDir = path.join(root, "prisma/migrations");

let url: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const name = `upgrade_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const own = new URL(server);
    own.pathname = `/${name}`;
    url = own.toString();
    drop = async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  } else {
    const embedded = await startEmbeddedDb();
    url = embedded.url;
    drop = embedded.stop;
  }
  await query(await readFile(path.join(root, "tests/fixtures/previous-release.sql"), "utf8"));
});

afterAll(async () => drop?.());

async function query<Row extends pg.QueryResultRow>(text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Row counts of every table, and the money each kept figure adds up to, as text (bigint sums). */
async function figures() {
  const tables = await query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    counts[name] = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`))[0]!.n;
  }
  const [sums] = await query<Record<string, string>>(`SELECT
    (SELECT string_agg(currency || ':' || total, ',' ORDER BY currency) FROM
      (SELECT currency, sum("totalMinor") AS total FROM "Order" GROUP BY currency) o) AS orders,
    (SELECT sum("amountMinor")::text FROM "WithdrawalRequest") AS withdrawals,
    (SELECT sum(minor)::text || '/' || sum(orders)::text FROM "SpendDay") AS "spendDays",
    (SELECT sum("deltaMinor")::text FROM "WalletMovement") AS "walletMovements",
    (SELECT sum("availableMinor")::text FROM "BalanceRead") AS "balanceReads",
    (SELECT max(id)::text FROM "AuditEvent") AS "lastAuditId"`);
  return { counts, sums: sums! };
}

describe("upgrading the database the previous release left", () => {
  it("applies only this release's new migrations and loses no row, sum, password or second factor", async () => {
    const before = await figures();
    expect(before.counts.Order).toBe(5);
    expect(before.counts.WalletMovement).toBeGreaterThan(0); // the release's triggers wrote their rows

    const recorded = new Set(
      (await query<{ name: string }>(`SELECT migration_name AS name FROM "_prisma_migrations"`)).map((r) => r.name),
    );
    const newer = (await readdir(migrationsDir)).filter((name) => !recorded.has(name)).sort();
    const result = await migrate(url, migrationsDir);
    expect(result.applied).toEqual(newer);
    expect(result.alreadyApplied).toBe(recorded.size);

    const after = await figures();
    for (const [table, count] of Object.entries(before.counts)) {
      if (table === "_prisma_migrations") expect(after.counts[table]).toBe(count + newer.length);
      else expect({ table, count: after.counts[table] }).toEqual({ table, count });
    }
    expect(after.sums).toEqual(before.sums);
    expect(after.sums.orders).toBe("EUR:4000,GBP:1200,USD:13200");

    // The enrolled person still signs in: their password, and a code from their authenticator
    // checked as the app's sign-in does (lib/auth/second-factor/prove-second-factor.ts).
    const [person] = await query<{ passwordHash: string; id: string; totpSecret: string; totpLastStep: string | null }>(
      `SELECT s."passwordHash", f.id, f."totpSecret", f."totpLastStep"::text FROM "Staff" s
         JOIN "SecondFactor" f ON f."staffId" = s.id AND f."confirmedAt" IS NOT NULL WHERE s.email = '${FIXTURE.email}'`,
    );
    expect(await verifyPassword(person!.passwordHash, FIXTURE.password)).toBe(true);
    const secret = openSecret(person!.totpSecret, deriveKey(FIXTURE.secondFactorKey, "secondFactorSeal"), person!.id);
    const lastStep = person!.totpLastStep === null ? null : Number(person!.totpLastStep);
    expect(checkTotp(secret, totpCodeAt(FIXTURE.totpSecret, Date.now()), lastStep)).toMatchObject({ ok: true });
    expect(checkTotp(secret, "000000", lastStep).ok && checkTotp(secret, "111111", lastStep).ok).toBe(false);

    // Started again, the release finds nothing left to apply.
    expect(await migrate(url, migrationsDir)).toEqual({ applied: [], alreadyApplied: recorded.size + newer.length });
  });
});
