/**
 * Autovacuum's work, for a database that has none. The embedded PostgreSQL (PGlite) is one
 * process with no background workers, so nothing ever vacuums or analyzes it: its tables
 * keep no visibility map (every index-only scan reads the table rows too, which doubled the
 * wallet chart's query at 100,000 orders) and no fresh statistics. A real PostgreSQL runs
 * its autovacuum launcher, and then this does nothing.
 *
 * Which tables, with PostgreSQL's default autovacuum thresholds (base + share of the rows):
 * changed since the last ANALYZE, inserted or dead since the last VACUUM. One table at a time,
 * because PGlite serves one statement at a time and a VACUUM of the whole database holds
 * every request for seconds.
 */
export type RunSql = (sql: string) => Promise<unknown[]>;

const NEEDS_UPKEEP = `
  SELECT format('%I.%I', schemaname, relname) AS "table",
         n_dead_tup > 50 + 0.2 * greatest(n_live_tup, 0)
           OR n_ins_since_vacuum > 1000 + 0.2 * greatest(n_live_tup, 0) AS "vacuum",
         n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0) AS "analyze"
  FROM pg_stat_user_tables
  WHERE n_dead_tup > 50 + 0.2 * greatest(n_live_tup, 0)
     OR n_ins_since_vacuum > 1000 + 0.2 * greatest(n_live_tup, 0)
     OR n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0)
  ORDER BY n_dead_tup + n_ins_since_vacuum + n_mod_since_analyze DESC`;

/** Vacuums and analyzes the tables that need it, unless the server's own autovacuum runs; returns what it did. */
export async function upkeepWithoutAutovacuum(run: RunSql): Promise<string[]> {
  const [launcher] = (await run(
    `SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE backend_type = 'autovacuum launcher'`,
  )) as { n: number }[];
  if ((launcher?.n ?? 0) > 0) return [];
  const done: string[] = [];
  for (const row of (await run(NEEDS_UPKEEP)) as { table: string; vacuum: boolean; analyze: boolean }[]) {
    const what = row.vacuum && row.analyze ? "VACUUM (ANALYZE)" : row.vacuum ? "VACUUM" : "ANALYZE";
    // The name comes from the catalog, quoted by format('%I.%I').
    await run(`${what} ${row.table}`);
    done.push(`${what} ${row.table}`);
  }
  return done;
}
