import type pg from "pg";
import type { Backup, TableDigest } from "./backup-file";

type Snapshot = Pick<Backup, "migrations" | "tables" | "digests" | "sequences">;

/**
 * Every table of the app's schema read in one REPEATABLE READ, READ ONLY transaction: one
 * point in time however many writers run. On PostgreSQL that is the transaction's snapshot;
 * on the embedded database every connection shares one session, which an open transaction
 * keeps to itself (patches/@electric-sql+pglite-socket…), so writers wait for it to end.
 */
export async function readSnapshot(client: pg.Client): Promise<Snapshot> {
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
  try {
    const tables: Snapshot["tables"] = {};
    for (const name of await appTables(client)) {
      const { rows } = await client.query<{ r: string }>(`SELECT t::text AS r FROM ${quoteIdent(name)} t`);
      tables[name] = rows.map((row) => row.r);
    }
    const digests = await tableDigests(client);
    const { rows: sequenceRows } = await client.query<{ name: string; value: string; called: boolean }>(
      `SELECT sequencename AS name, COALESCE(last_value, 1)::text AS value, last_value IS NOT NULL AS called
         FROM pg_sequences WHERE schemaname = 'public'`,
    );
    const { rows: migrationRows } = await client.query<{ name: string; checksum: string }>(
      `SELECT migration_name AS name, checksum FROM "_prisma_migrations"
        WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL ORDER BY migration_name`,
    );
    await client.query("COMMIT");
    return {
      tables,
      digests,
      sequences: Object.fromEntries(sequenceRows.map((s) => [s.name, { value: s.value, called: s.called }])),
      migrations: migrationRows,
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** The app's tables (schema public; the job queue's schema is pg-boss's own). */
export async function appTables(client: pg.Client | pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  return rows.map((r) => r.name);
}

/**
 * Each table's row count and an md5 of its rows' text in a fixed order: equal digests mean
 * equal tables. Run inside the caller's transaction (the backup's snapshot, the restore's load).
 */
export async function tableDigests(client: pg.Client | pg.PoolClient): Promise<Record<string, TableDigest>> {
  const digests: Record<string, TableDigest> = {};
  for (const name of await appTables(client)) {
    const { rows } = await client.query<TableDigest>(
      `SELECT count(*)::int AS rows, md5(COALESCE(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C"), '')) AS md5
         FROM ${quoteIdent(name)} t`,
    );
    digests[name] = rows[0]!;
  }
  return digests;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
