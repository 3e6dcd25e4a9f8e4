/**
 * `npm run db:restore -- FILE`: a backup of `npm run db:backup` into a new, empty DATA_DIR (never
 * over a running app's folder, never over existing data). `npm start` with that DATA_DIR then
 * serves it, applying any migration newer than the backup as at an upgrade.
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { acquireDataDir, DataDirBusyError } from "./lib/data-dir-lock";
import { explainStartupError } from "./lib/explain-startup-error";
import { resolveDataDir } from "./lib/local-config";
import { readBackupFile, type Backup } from "@/lib/backup/backup-file";
import { checkBackupMigrations, loadBackup, writeKeptFiles } from "@/lib/backup/restore-backup";
import { startEmbeddedDb } from "@/lib/db/embedded";

const root = path.resolve(import.meta.dirname, "..");
const migrationsDir = path.join(root, "prisma/migrations");
const source = process.argv[2];
if (!source) fail("Usage: DATA_DIR=<a new folder> npm run db:restore -- FILE");
if (process.env.DATABASE_URL)
  fail(
    'DATABASE_URL is set: restore PostgreSQL with pg_restore (README, "Backups"); this command restores local mode\'s embedded database.',
  );

const dataDir = resolveDataDir(root);
let backup: Backup;
try {
  backup = await readBackupFile(path.resolve(process.env.INIT_CWD ?? process.cwd(), source!));
  await checkBackupMigrations(backup, migrationsDir);
} catch (error) {
  fail(`[restore] ${explainStartupError(error)}`);
}

await mkdir(dataDir, { recursive: true });
const lock = await acquireDataDir(dataDir, 0).catch((error: unknown) => {
  if (error instanceof DataDirBusyError)
    fail(`[restore] refused: ${error.message} A restore never writes into a running app's data folder.`);
  throw error;
});
if ((await readdir(dataDir)).length > 0) {
  await lock.release();
  fail(`[restore] refused: ${dataDir} is not empty. Restore into a new folder (DATA_DIR=…), then start the app on it.`);
}

try {
  const files = await writeKeptFiles(dataDir, backup);
  const db = await startEmbeddedDb({ dataDir: path.join(dataDir, "pglite") });
  try {
    await loadBackup(db.url, backup, migrationsDir);
  } finally {
    await db.stop();
  }
  const rows = Object.values(backup.digests).reduce((sum, d) => sum + d.rows, 0);
  console.log(
    [
      `[restore] restored the backup of ${backup.takenAt} into ${dataDir}: ${Object.keys(backup.tables).length} tables, ${rows} rows, each equal to the backup's`,
      `[restore] with ${files.join(", ") || "no DATA_DIR file"}`,
      ...backup.notIncluded.map((line) => `[restore] NOT INCLUDED: ${line}`),
      `[restore] start it with: DATA_DIR=${dataDir} npm start`,
    ].join("\n"),
  );
} catch (error) {
  // Nothing half-restored is left to be started by mistake: the folder was empty.
  for (const entry of await readdir(dataDir)) await rm(path.join(dataDir, entry), { recursive: true, force: true });
  console.error(`[restore] failed, nothing kept: ${explainStartupError(error)}`);
  process.exitCode = 1;
} finally {
  await lock.release();
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
