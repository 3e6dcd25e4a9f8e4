import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import type { Backup } from "./backup-file";
import { appTables, quoteIdent, tableDigests } from "./read-snapshot";

const ROWS_PER_INSERT = 1_000;

/**
 * The migrations a backup was taken at, as this release has them: a backup from a newer release
 * (a migration this one lacks) or one whose migration was edited since is refused before anything
 * is written.
 */
export async function checkBackupMigrations(backup: Backup, migrationsDir: string): Promise<void> {
  for (const { name, checksum } of backup.migrations) {
    const file = path.join(migrationsDir, name, "migration.sql");
    if (!existsSync(file))
      throw new Error(
        `The backup was taken by a newer release (its migration ${name} is not in this one): restore it with that release.`,
      );
    const here = createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
    if (here !== checksum) throw new Error(`Migration ${name} differs from the one the backup was taken at.`);
  }
}

/**
 * Loads a backup into an empty database: the schema as it was at the backup (its own migrations,
 * no later one: `npm start` applies those as at any upgrade), then every row, in one transaction
 * with triggers off (the kept sums are rows of their own, restored as they were), then the
 * sequences. Each table's count and digest must equal the backup's, or nothing is kept.
 */
export async function loadBackup(databaseUrl: string, backup: Backup, migrationsDir: string): Promise<void> {
  await checkBackupMigrations(backup, migrationsDir);
  await migrate(databaseUrl, migrationsDir, { only: backup.migrations.map((m) => m.name) });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL session_replication_role = replica");
    const tables = await appTables(client);
    const missing = Object.keys(backup.tables).filter((name) => !tables.includes(name));
    if (missing.length) throw new Error(`The backup has tables its migrations do not make: ${missing.join(", ")}.`);
    await client.query(`TRUNCATE ${tables.map(quoteIdent).join(", ")}`);
    for (const [name, rows] of Object.entries(backup.tables)) {
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        await client.query(`INSERT INTO ${quoteIdent(name)} SELECT (r::${quoteIdent(name)}).* FROM unnest($1::text[]) AS r`, [
          rows.slice(i, i + ROWS_PER_INSERT),
        ]);
      }
    }
    for (const [name, { value, called }] of Object.entries(backup.sequences)) {
      await client.query("SELECT setval($1::regclass, $2::bigint, $3)", [quoteIdent(name), value, called]);
    }
    const restored = await tableDigests(client);
    const differing = Object.keys(backup.digests).filter(
      (name) => restored[name]?.rows !== backup.digests[name]!.rows || restored[name]?.md5 !== backup.digests[name]!.md5,
    );
    if (differing.length) throw new Error(`Restored tables differ from the backup: ${differing.join(", ")}.`);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The DATA_DIR files the backup carried, written as the launcher writes them (0600). */
export async function writeKeptFiles(dataDir: string, backup: Backup): Promise<string[]> {
  for (const [name, text] of Object.entries(backup.files)) {
    await writeFile(path.join(dataDir, path.basename(name)), text, { mode: 0o600, flag: "wx" });
  }
  return Object.keys(backup.files);
}
