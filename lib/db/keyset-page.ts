import "server-only";

/** A page of a newest-first list and the cursor of the next one (null on the last page). */
export type KeysetPage<R> = { rows: R[]; nextCursor: string | null };

/** Past this many rows a list says "10,000+" rather than have the database count them all. */
export const COUNT_CAP = 10_000;
/**
 * The cap when the filter searches for text inside a field ("reference contains …"). A trigram
 * index only narrows such a search: every candidate row is read and tested again, so counting
 * the matches of a short, common fragment was most of the page's time
 * (docs/decisions/0010-reads-at-100000-orders.md). A search that broad is refined, not
 * counted: "1,000+" says all it needs to.
 */
export const SEARCH_COUNT_CAP = 1_000;
export type CappedCount = { total: number; capped: boolean };

/** The requested page size, kept between 1 and `max` (50 when none is asked for). */
export function pageLimit(requested: number | undefined, max: number): number {
  return Math.min(Math.max(requested ?? 50, 1), max);
}

/**
 * Cuts a read of `limit + 1` rows to one page: the extra row only says there is a next
 * page, whose cursor is taken from the page's last row.
 */
export function keysetPage<R>(found: R[], limit: number, cursorOf: (row: R) => string): KeysetPage<R> {
  const rows = found.slice(0, limit);
  const last = found.length > limit ? rows[rows.length - 1] : undefined;
  return { rows, nextCursor: last ? cursorOf(last) : null };
}

/** `<ms>.<id>`: a cursor for lists ordered by a time, then an id (equal times still page without skips). */
export function timeCursor(at: Date, id: string): string {
  return `${at.getTime()}.${id}`;
}

/** The time and id of a `timeCursor` (checked by the list's cursor schema first). */
export function readTimeCursor(cursor: string): { at: Date; id: string } {
  const dot = cursor.indexOf(".");
  return { at: new Date(Number(cursor.slice(0, dot))), id: cursor.slice(dot + 1) };
}

/** A count that stops at the cap: `count` is asked for at most one row more than the cap. */
export async function cappedCount(count: (take: number) => Promise<number>, cap = COUNT_CAP): Promise<CappedCount> {
  const total = await count(cap + 1);
  return total > cap ? { total: cap, capped: true } : { total, capped: false };
}
