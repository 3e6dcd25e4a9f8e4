import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/**
 * Applies prisma/migrations/<name>/migration.sql in name order and records each in
 * `_prisma_migrations` exactly as `prisma migrate deploy` would (checksum = sha256 of the
 * file), so the two agree wherever Prisma's schema engine exists. Prisma's own migrate
 * cannot run here (its engine binary cannot be downloaded). Concurrent migrators
 * (several instances starting at once) are serialized with an advisory lock.
 */
const LOCK_ID = 72_613_001;

/** How the migrate step records what it applied (Prisma's own table, as `prisma migrate deploy` makes it). */
export const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export type MigrationResult = { applied: string[]; alreadyApplied: number };

/** `only`: apply just these migrations (a restore rebuilds the schema its backup was taken at). */
export async function migrate(
  databaseUrl: string,
  migrationsDir = path.resolve("prisma/migrations"),
  options: { only?: readonly string[] } = {},
): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
    try {
      return await applyPending(client, migrationsDir, options.only);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]);
    }
  } finally {
    await client.end();
  }
}

async function applyPending(client: pg.Client, migrationsDir: string, only?: readonly string[]): Promise<MigrationResult> {
  await client.query(MIGRATIONS_TABLE);
  const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
  );
  const done = new Map(rows.map((r) => [r.migration_name, r]));
  const names = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => !only || only.includes(name))
    .sort();

  const applied: string[] = [];
  for (const name of names) {
    const sql = await readFile(path.join(migrationsDir, name, "migration.sql"));
    const checksum = createHash("sha256").update(sql).digest("hex");
    const previous = done.get(name);
    if (previous) {
      if (!previous.finished_at)
        throw new Error(`Migration ${name} started earlier but never finished; fix the database by hand.`);
      if (previous.checksum !== checksum)
        throw new Error(`Migration ${name} was changed after it was applied (checksum differs).`);
      continue;
    }
    const id = randomUUID();
    await client.query("BEGIN");
    try {
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
        [id, checksum, name],
      );
      await client.query(sql.toString("utf8"));
      await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
    }
    applied.push(name);
  }
  return { applied, alreadyApplied: names.length - applied.length };
}
