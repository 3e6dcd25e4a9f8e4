import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaClient } from "./generated/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";

export type Db = PrismaClient;
/** The client handed to `prisma.$transaction(async (tx) => …)` callbacks. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as { __db?: PrismaClient };

/** One pooled client per process (survives Next's dev reloads through globalThis). */
export function db(): PrismaClient {
  if (!globalForDb.__db) {
    const adapter = new PrismaPg({ connectionString: getEnv().DATABASE_URL, max: 5 });
    // "minimal": the default under NODE_ENV=production, set here for every process (the worker,
    // scripts, tests). The others capture a stack trace on every query, to point at the caller in
    // an error's message: measurable CPU on every query, for messages no person sees.
    globalForDb.__db = new PrismaClient({ adapter, errorFormat: "minimal" });
  }
  return globalForDb.__db;
}

export { Prisma } from "./generated/client";
export type { Role } from "./generated/client";

const globalForPool = globalThis as unknown as { __sqlPool?: pg.Pool };
/** Each connection's prepared statements: statement text → its name on that connection. */
const prepared = new WeakMap<pg.PoolClient, Map<string, string>>();

/**
 * One statement through node-postgres directly, for the few hot statements where Prisma's
 * query layers cost more than the statement (ARCHITECTURE.md, "Hot statements"; figures in
 * docs/decisions/0014-hot-statements-through-node-postgres.md), on a small pool of its own.
 * Prepared once per connection: pass a fixed statement text, not one built per call. Each
 * connection names its statements at random and idle connections are kept, since on the
 * embedded database all connections share one session. A timestamp without time zone is read
 * as UTC, as Prisma does; pass instants as ISO strings cast in SQL
 * (`$1::timestamptz AT TIME ZONE 'UTC'`), not as Dates (node-postgres sends local time).
 */
export async function sqlQuery<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<Row[]> {
  return onConnection((query) => query<Row>(text, values));
}

/** A statement on the connection a caller holds, prepared as `sqlQuery` prepares it. */
export type SqlQuery = <Row extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<Row[]>;

/**
 * Statements on one pooled connection between BEGIN and COMMIT (ROLLBACK when `run` throws),
 * for a hot write whose rows must commit together (the webhook inbox and its jobs). `run` gets
 * the statement function; pass it on, never a second connection, or PGlite's one session waits on itself.
 */
export async function sqlTransaction<T>(run: (query: SqlQuery) => Promise<T>): Promise<T> {
  return onConnection(async (query) => {
    await query("BEGIN", []);
    try {
      const result = await run(query);
      await query("COMMIT", []);
      return result;
    } catch (error) {
      await query("ROLLBACK", []).catch(() => undefined);
      throw error;
    }
  });
}

async function onConnection<T>(run: (query: SqlQuery) => Promise<T>): Promise<T> {
  const client = await sqlPool().connect();
  // A connection lost while held is reported on the client, which ends the process unless
  // someone listens (the pool listens only while it holds the connection itself).
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.on("error", onError);
  try {
    let names = prepared.get(client);
    if (!names) prepared.set(client, (names = new Map()));
    const statements = names;
    return await run(async <Row extends pg.QueryResultRow>(text: string, values: unknown[]) => {
      let name = statements.get(text);
      if (!name) statements.set(text, (name = `sql_${randomUUID().replaceAll("-", "")}`));
      return (await client.query<Row>({ name, text, values })).rows;
    });
  } finally {
    client.removeListener("error", onError);
    client.release(lost); // a lost connection is dropped from the pool, not handed out again
  }
}

const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;

/** "2026-11-25 15:03:34.123" as the UTC instant it is here (the text format; BC and infinity never stored). */
function utcTimestamp(text: string): Date {
  return new Date(`${text.replace(" ", "T")}Z`);
}

const typeParser = ((oid: number, format?: string) =>
  oid === TIMESTAMP_WITHOUT_TIME_ZONE && format !== "binary"
    ? utcTimestamp
    : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"];

function sqlPool(): pg.Pool {
  if (!globalForPool.__sqlPool) {
    const pool = new pg.Pool({
      connectionString: getEnv().DATABASE_URL,
      // Every staff request uses it twice; the embedded database runs one statement at a time
      // anyway, and a real one gets at most this many more connections per app process.
      max: 4,
      types: { getTypeParser: typeParser },
      idleTimeoutMillis: 0,
      allowExitOnIdle: true,
    });
    // An idle connection the database drops (a restart) is reported here; unheard, it would end
    // the process. The pool has already let it go, and the next query opens a new one.
    pool.on("error", (error) => logger.warn("an idle database connection was lost", { error: error.message }));
    globalForPool.__sqlPool = pool;
  }
  return globalForPool.__sqlPool;
}
