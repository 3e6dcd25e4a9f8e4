import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
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

/**
 * One statement through node-postgres directly, for the hot path where Prisma's query layers
 * cost more than the statement: the webhook inbox insert, where `$queryRaw` took about
 * 0.06 ms more of the app's CPU per delivery than this (`npm run bench:webhooks`). The same
 * database; a small pool of its own that does not keep an idle process alive. Unnamed
 * statements, as Prisma's: on the embedded database every connection shares one backend
 * session, where two connections preparing one name would collide. Rows come back as
 * node-postgres parses them (a timestamp without time zone in this process's zone), so
 * return text, numbers or booleans.
 */
export async function sqlQuery<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<Row[]> {
  return (await sqlPool().query<Row>(text, values)).rows;
}

function sqlPool(): pg.Pool {
  if (!globalForPool.__sqlPool) {
    const pool = new pg.Pool({ connectionString: getEnv().DATABASE_URL, max: 2, allowExitOnIdle: true });
    // An idle connection the database drops (a restart) is reported here; unheard, it would end
    // the process. The pool has already let it go, and the next query opens a new one.
    pool.on("error", (error) => logger.warn("an idle database connection was lost", { error: error.message }));
    globalForPool.__sqlPool = pool;
  }
  return globalForPool.__sqlPool;
}
