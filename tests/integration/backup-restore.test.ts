import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBackupFile, type Backup } from "@/lib/backup/backup-file";
import { tableDigests } from "@/lib/backup/read-snapshot";
import { loadBackup } from "@/lib/backup/restore-backup";
import { takeBackup } from "@/lib/backup/take-backup";
import { startEmbeddedDb, type EmbeddedDb } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

/**
 * A backup of the embedded database and its restore, below the command line (the whole drill,
 * with the running app, is tests/e2e/backup-drill.spec.ts): what comes back is what was read,
 * sequences included, and a backup that would not come back whole is refused with nothing kept.
 */
const migrationsDir = path.resolve(import.meta.dirname, "../../prisma/migrations");
let source: EmbeddedDb;
let folder: string;
let backup: Backup;

async function sql<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function digests(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await tableDigests(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  source = await startEmbeddedDb();
  await migrate(source.url, migrationsDir);
  await sql(
    source.url,
    `INSERT INTO "Order" (id, "clientReference", status, "totalMinor", currency, lines, "upstreamCreatedAt", "upstreamUpdatedAt", "updatedAt")
     VALUES ('ord_b1', 'quote '' and "double", comma', 'fulfilled', 1999, 'USD', '[{"productName":"Gift card \\u00e9"}]', now(), now(), now())`,
  );
  await sql(
    source.url,
    `INSERT INTO "AuditEvent" (action, details) VALUES ('order.place', '{"note":"line\\nbreak"}'), ('order.place', NULL)`,
  );
  folder = await mkdtemp(path.join(tmpdir(), "backup-test-"));
  const file = path.join(folder, "one.json.gz");
  await takeBackup({ databaseUrl: source.url, dataDir: folder, file });
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  backup = await readBackupFile(file);
});

afterAll(async () => {
  await source?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe("a backup of the embedded database", () => {
  it("restores every table as it was read, and the sequences go on from where they were", async () => {
    const target = await startEmbeddedDb();
    try {
      await loadBackup(target.url, backup, migrationsDir);
      expect(await digests(target.url)).toEqual(await digests(source.url));
      const [order] = await sql<{ clientReference: string; totalMinor: string }>(
        target.url,
        `SELECT "clientReference", "totalMinor"::text FROM "Order" WHERE id = 'ord_b1'`,
      );
      expect(order).toEqual({ clientReference: `quote ' and "double", comma`, totalMinor: "1999" });
      // The next audit row takes the next id, not one the restored rows hold.
      const [next] = await sql<{ id: string }>(target.url, `INSERT INTO "AuditEvent" (action) VALUES ('x') RETURNING id::text`);
      const [max] = await sql<{ id: string }>(source.url, `SELECT max(id)::text AS id FROM "AuditEvent"`);
      expect(BigInt(next!.id)).toBe(BigInt(max!.id) + 1n);
    } finally {
      await target.stop();
    }
  });

  it("refuses a backup whose rows do not add up to its digests, and keeps nothing of it", async () => {
    const altered: Backup = { ...backup, tables: { ...backup.tables, Order: [] } };
    const target = await startEmbeddedDb();
    try {
      await expect(loadBackup(target.url, altered, migrationsDir)).rejects.toThrow(
        /Restored tables differ from the backup: Order/,
      );
      expect(await sql(target.url, `SELECT 1 FROM "AuditEvent"`)).toEqual([]);
    } finally {
      await target.stop();
    }
  });

  it("refuses a backup taken by a newer release before writing anything", async () => {
    const newer: Backup = {
      ...backup,
      migrations: [...backup.migrations, { name: "29991231000000_future", checksum: "0".repeat(64) }],
    };
    const target = await startEmbeddedDb();
    try {
      await expect(loadBackup(target.url, newer, migrationsDir)).rejects.toThrow(/taken by a newer release/);
      expect(await sql(target.url, `SELECT 1 FROM pg_tables WHERE schemaname = 'public'`)).toEqual([]);
    } finally {
      await target.stop();
    }
  });
});
