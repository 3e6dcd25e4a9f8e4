import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { getEnv } from "@/lib/env";

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
