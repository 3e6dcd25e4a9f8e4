/**
 * In-process read cache with request coalescing: identical concurrent reads share one
 * upstream call, and a fresh answer is served from memory for `ttlMs`. Failures are not
 * cached. Bounded by entry count (oldest evicted first).
 */
export type CacheStats = { hits: number; misses: number; coalesced: number };

export function createReadCache(maxEntries = 2_000) {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  const inFlight = new Map<string, Promise<unknown>>();
  const stats: CacheStats = { hits: 0, misses: 0, coalesced: 0 };

  /** `ttl` may depend on the answer (e.g. keep "found" longer than "not there yet"). */
  async function get<T>(key: string, ttl: number | ((value: T) => number), load: () => Promise<T>): Promise<T> {
    const entry = entries.get(key);
    if (entry && entry.expiresAt > Date.now()) {
      stats.hits += 1;
      return entry.value as T;
    }
    const pending = inFlight.get(key);
    if (pending) {
      stats.coalesced += 1;
      return pending as Promise<T>;
    }
    stats.misses += 1;
    const promise = load()
      .then((value) => {
        const ttlMs = typeof ttl === "function" ? ttl(value) : ttl;
        if (ttlMs > 0) {
          entries.delete(key);
          entries.set(key, { value, expiresAt: Date.now() + ttlMs });
          if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
        }
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  }

  return {
    get,
    invalidate(prefix: string) {
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
    stats: () => ({
      ...stats,
      hitRate:
        stats.hits + stats.coalesced === 0 ? 0 : (stats.hits + stats.coalesced) / (stats.hits + stats.coalesced + stats.misses),
    }),
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;
