/** A page's `searchParams` as Next.js hands them over: a key may come once, repeated, or not at all. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a parameter (a repeated one counts once), for filters that take one. */
export function firstParam(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The first value of each of `keys`, for a filter schema to parse. */
export function pickParams<K extends string>(raw: SearchParams, keys: readonly K[]): Record<K, string | undefined> {
  return Object.fromEntries(keys.map((key) => [key, firstParam(raw[key])])) as Record<K, string | undefined>;
}

/** A cursor parameter when its schema accepts it, else undefined (a bad one shows the first page). */
export function validCursor(
  raw: SearchParams,
  key: string,
  schema: { safeParse: (v: unknown) => { success: boolean } },
): { given?: string; cursor?: string } {
  const given = firstParam(raw[key]);
  return { given, cursor: given && schema.safeParse(given).success ? given : undefined };
}

/** The string-valued fields of a parsed filter as a query string, for links that keep it. */
export function filterQuery(filter: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** `path?query` with the extra parameters added, or just `path` when nothing is left. */
export function hrefWith(path: string, query: URLSearchParams, extra: Record<string, string | undefined> = {}): string {
  const next = new URLSearchParams(query);
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) next.set(key, value);
  return next.size ? `${path}?${next}` : path;
}
