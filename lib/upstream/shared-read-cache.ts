import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { SharedReadCache } from "@/lib/upstream/client";

/**
 * The catalog cache every app process and instance shares (lib/upstream/client/client.ts,
 * `catalogRead`). Each process keeps its own cache too; without this one, every process
 * asked the upstream for the same catalog pages, so that with two processes per instance
 * the catalog alone took twice, with two instances four times, the upstream budget a
 * single process took. A read here costs a database round trip; a miss, an upstream call.
 *
 * Only the catalog (plain JSON, the same for every person who may read it) is kept here.
 * Two processes missing the same key at once may both ask the upstream; the later answer
 * wins. Expired rows are pruned by the hourly upstream job (lib/upstream/jobs.ts).
 */
export const sharedReadCache: SharedReadCache = {
  async get(key) {
    const row = await db().sharedReadCache.findUnique({ where: { key } });
    return row ? { value: row.value, expiresAt: row.expiresAt.getTime() } : null;
  },
  async put(key, value, expiresAt) {
    const data = { value: value as Prisma.InputJsonValue, expiresAt: new Date(expiresAt) };
    await db()
      .sharedReadCache.upsert({ where: { key }, create: { key, ...data }, update: data })
      .catch((error: unknown) => {
        logger.warn("shared read cache: not stored", { error: error instanceof Error ? error.message : String(error) });
      });
  },
};

/** Rows past their time: nobody reads them (a reader checks `expiresAt`); they only take room. */
export async function pruneSharedReadCache(now = new Date()): Promise<number> {
  const { count } = await db().sharedReadCache.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
