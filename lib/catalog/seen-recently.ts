/**
 * What this process recorded from catalog answers within the hour, by key (a picture's
 * reference, a product's id), so that a page view of known things writes nothing. One map per
 * name on globalThis (it survives Next's dev reloads); cleared whole when it grows past 20,000.
 */
const RECORDED_FOR_MS = 3_600_000;
const MAX_REMEMBERED = 20_000;

const globalForSeen = globalThis as unknown as { __seenInCatalog?: Map<string, Map<string, number>> };
const maps = (globalForSeen.__seenInCatalog ??= new Map());

export function seenRecently(name: string) {
  const recorded: Map<string, number> = maps.get(name) ?? maps.set(name, new Map()).get(name)!;
  return {
    /** The keys not recorded within the hour, each once. */
    fresh: (keys: string[], now: number) => [...new Set(keys)].filter((key) => (recorded.get(key) ?? 0) < now - RECORDED_FOR_MS),
    /** The keys now recorded. */
    mark: (keys: string[], now: number) => {
      if (recorded.size + keys.length > MAX_REMEMBERED) recorded.clear();
      for (const key of keys) recorded.set(key, now);
    },
  };
}
