import "server-only";
import { readdir } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { logger } from "@/lib/log";
import { LAST_BEAT, toBackgroundWork, type LastBeatRow } from "@/lib/jobs/background-work";

/** Why an instance is not ready, as the readiness answer's `code` (README, "Health and readiness"). */
export type NotReadyReason = "database_unreachable" | "migrations_pending" | "worker_stale";

export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason };

/** Once the migrations were found current, they are not compared again for this long. */
const CURRENT_FOR_MS = 60_000;
/** A probe must answer quickly: a database that takes longer than this is as good as gone. */
const TIMEOUT_MS = 2_000;
const UNDEFINED_TABLE = "42P01";

const pools = new Map<string, pg.Pool>();
const expected = new Map<string, Promise<string[]>>();
const currentUntil = new Map<string, number>();
let lastReason: NotReadyReason | "ready" | null = null;

/**
 * Ready: the database answers, every migration this release ships is applied, and a worker
 * has beaten within the last minute (./background-work.ts). One query when the migrations were
 * found current within the last minute (the list this release ships is read once), two
 * otherwise, through a connection of its own, so that a pool busy with requests cannot make a
 * probe time out. The first failing condition is the reason; its particulars (which migration,
 * the database's error) go to the log when the reason changes, never to the caller.
 */
export async function readiness(databaseUrl: string, migrationsDir = path.resolve("prisma/migrations")): Promise<Readiness> {
  const verdict = await judge(databaseUrl, migrationsDir);
  const reason = verdict.verdict.ready ? "ready" : verdict.verdict.reason;
  if (reason !== lastReason) {
    if (reason === "ready") logger.info("ready");
    else logger.warn("not ready", { reason, detail: verdict.detail });
    lastReason = reason;
  }
  return verdict.verdict;
}

async function judge(databaseUrl: string, dir: string): Promise<{ verdict: Readiness; detail?: string }> {
  const pool = poolFor(databaseUrl);
  const key = `${databaseUrl}\n${dir}`;
  let shipped: string[];
  try {
    shipped = await shippedMigrations(dir);
  } catch (error) {
    // Without the list this release ships, nothing says the database is current.
    return { verdict: { ready: false, reason: "migrations_pending" }, detail: `cannot read ${dir}: ${String(error)}` };
  }
  try {
    if ((currentUntil.get(key) ?? 0) < Date.now()) {
      const pending = await pendingMigrations(pool, shipped);
      if (pending.length > 0)
        return { verdict: { ready: false, reason: "migrations_pending" }, detail: `pending: ${pending.join(", ")}` };
      currentUntil.set(key, Date.now() + CURRENT_FOR_MS);
    }
    const { rows } = await pool.query<LastBeatRow>(LAST_BEAT);
    const work = toBackgroundWork(rows[0]);
    if (!work.running)
      return {
        verdict: { ready: false, reason: "worker_stale" },
        detail: work.lastBeatAt ? `last beat ${work.lastBeatAt.toISOString()}` : "no worker has ever beaten",
      };
    return { verdict: { ready: true } };
  } catch (error) {
    currentUntil.delete(key);
    const message = error instanceof Error ? error.message : String(error);
    // The database answered, without the tables this release creates: not migrated yet.
    if ((error as { code?: string }).code === UNDEFINED_TABLE)
      return { verdict: { ready: false, reason: "migrations_pending" }, detail: message };
    return { verdict: { ready: false, reason: "database_unreachable" }, detail: message };
  }
}

/** This release's migrations: the folders under `dir`, read once. */
function shippedMigrations(dir: string): Promise<string[]> {
  let names = expected.get(dir);
  if (!names) {
    names = readdir(dir, { withFileTypes: true }).then((entries) =>
      entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
    );
    expected.set(dir, names);
    names.catch(() => expected.delete(dir));
  }
  return names;
}

/** The shipped migrations that the database has not finished. */
async function pendingMigrations(pool: pg.Pool, shipped: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((row) => row.migration_name));
  return shipped.filter((name) => !applied.has(name)).sort();
}

function poolFor(databaseUrl: string): pg.Pool {
  let pool = pools.get(databaseUrl);
  if (!pool) {
    pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 1,
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
      idleTimeoutMillis: 0,
      allowExitOnIdle: true,
    });
    // An idle connection the database drops is reported here; the next probe opens a new one.
    pool.on("error", () => undefined);
    pools.set(databaseUrl, pool);
  }
  return pool;
}
