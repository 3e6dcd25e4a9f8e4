/**
 * `npm run db:backup -- FILE`: one backup of local mode's embedded database and the DATA_DIR files
 * it needs (README, "Backups"), taken while the app runs (through its database) or not.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { explainStartupError } from "./lib/explain-startup-error";
import { loadLocalConfig, resolveDataDir } from "./lib/local-config";
import { takeBackup } from "@/lib/backup/take-backup";
import { describeBackup } from "@/lib/backup/describe-backup";

const root = path.resolve(import.meta.dirname, "..");
const target = process.argv[2];
if (!target) fail("Usage: npm run db:backup -- FILE   (a new file; it will hold secrets and be written 0600)");
if (process.env.DATABASE_URL)
  fail('DATABASE_URL is set: back up PostgreSQL with pg_dump and its archiving (README, "Backups"), not with this command.');

// A mistyped DATA_DIR would otherwise start an empty database there and back that up.
if (!existsSync(path.join(resolveDataDir(root), "pglite")))
  fail(`There is no embedded database in ${resolveDataDir(root)} (DATA_DIR): nothing to back up.`);

const config = await loadLocalConfig({ root, upstream: false }).catch((error: unknown) => fail(explainStartupError(error)));
try {
  const summary = await takeBackup({
    databaseUrl: config.env.DATABASE_URL,
    dataDir: config.dataDir,
    // npm runs scripts from the project's folder; FILE is as the operator typed it, from theirs.
    file: path.resolve(process.env.INIT_CWD ?? process.cwd(), target!),
    environmentSecrets: config.environmentSecrets,
  });
  console.log(describeBackup(summary));
} catch (error) {
  console.error(`[backup] failed: ${explainStartupError(error)}`);
  process.exitCode = 1;
} finally {
  await config.stop();
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
