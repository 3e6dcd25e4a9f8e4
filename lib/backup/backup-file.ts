import { readFile, writeFile } from "node:fs/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";

/**
 * One backup of local mode: the embedded database's tables as read in one snapshot, and the
 * files under DATA_DIR without which that data is unusable (the keys that sign sessions and
 * seal second factors, the local upstream's keys and state). Gzipped JSON, written 0600: it
 * holds secrets. Rows are PostgreSQL's own text form of each row (`t::text`), which the same
 * schema reads back exactly (`$1::"Table"`), whatever the column types.
 */
export const BACKUP_FORMAT = "dgis-backoffice-backup";

/** DATA_DIR files a backup carries (those present): what local-config.ts and local-sandbox.ts keep there. */
export const KEPT_FILES = [
  "auth-secret",
  "second-factor-key",
  "sandbox-api-key",
  "sandbox-webhook-secret",
  "sandbox-scoped-keys.json",
  "sandbox-port",
  "sandbox-state.json",
] as const;

/** Said at every backup and restore, and kept in the file. */
export const NOT_INCLUDED = [
  "the job queue (schema pgboss): the worker's sweeps and schedules find pending work again from the tables after a restore",
  "secrets given in the environment rather than kept in DATA_DIR (AUTH_SECRET, SECOND_FACTOR_KEY, SERVICE_* keys, SMTP_URL): keep them yourself",
  "the build (.next) and the code: restore with the same release, or an older backup then upgrades at start",
];

const digest = z.object({ rows: z.number().int().nonnegative(), md5: z.string() });
export type TableDigest = z.infer<typeof digest>;

const backupSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(1),
  takenAt: z.string(),
  migrations: z.array(z.object({ name: z.string(), checksum: z.string() })),
  /** Table name → its rows' text; `_prisma_migrations` included. */
  tables: z.record(z.string(), z.array(z.string())),
  digests: z.record(z.string(), digest),
  sequences: z.record(z.string(), z.object({ value: z.string(), called: z.boolean() })),
  files: z.record(z.string(), z.string()),
  notIncluded: z.array(z.string()),
});
export type Backup = z.infer<typeof backupSchema>;

export async function writeBackupFile(file: string, backup: Backup): Promise<number> {
  const bytes = gzipSync(JSON.stringify(backup));
  try {
    await writeFile(file, bytes, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new Error(`${file} already exists: a backup never overwrites a file; give a new name.`);
    throw error;
  }
  return bytes.length;
}

export async function readBackupFile(file: string): Promise<Backup> {
  let json: unknown;
  try {
    json = JSON.parse(gunzipSync(await readFile(file)).toString("utf8"));
  } catch {
    throw new Error(`${file} is not a backup written by npm run db:backup (not gzipped JSON).`);
  }
  const parsed = backupSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${file} is not a backup this release can read (${parsed.error.issues[0]?.message}).`);
  return parsed.data;
}
