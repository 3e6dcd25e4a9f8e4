import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { BACKUP_FORMAT, KEPT_FILES, NOT_INCLUDED, writeBackupFile } from "./backup-file";
import { readSnapshot } from "./read-snapshot";

export type BackupSummary = {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  /** DATA_DIR files carried (names only). */
  files: string[];
  /** What the operator must keep elsewhere: always said, never only in the file. */
  notIncluded: string[];
  ms: number;
};

/**
 * Writes one backup of the database at `databaseUrl` (the running app's embedded database, or
 * one this process opened) and of the DATA_DIR files beside it. `environmentSecrets` names the
 * secrets given in the environment instead of DATA_DIR: the backup cannot hold what it never saw.
 */
export async function takeBackup(options: {
  databaseUrl: string;
  dataDir: string;
  file: string;
  environmentSecrets?: string[];
}): Promise<BackupSummary> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let snapshot;
  try {
    snapshot = await readSnapshot(client);
  } finally {
    await client.end();
  }
  const files: Record<string, string> = {};
  for (const name of KEPT_FILES) {
    const file = path.join(options.dataDir, name);
    if (existsSync(file)) files[name] = await readFile(file, "utf8");
  }
  const notIncluded = [
    ...(options.environmentSecrets?.length
      ? [`${options.environmentSecrets.join(", ")}: set in the environment, so not in this backup`]
      : []),
    ...NOT_INCLUDED,
  ];
  const bytes = await writeBackupFile(options.file, {
    format: BACKUP_FORMAT,
    version: 1,
    takenAt: new Date().toISOString(),
    ...snapshot,
    files,
    notIncluded,
  });
  return {
    file: options.file,
    bytes,
    tables: Object.keys(snapshot.tables).length,
    rows: Object.values(snapshot.digests).reduce((sum, d) => sum + d.rows, 0),
    files: Object.keys(files),
    notIncluded,
    ms: Date.now() - started,
  };
}
