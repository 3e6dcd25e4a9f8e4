import { createReader } from "./validate";

// Newest-first lists (orders, withdrawals, deposits) page with an opaque cursor: a base64url of the last
// item's sequence number. New items never shift a page that a caller is walking.

export type PageParams = { limit: number; beforeSeq: number | null };
export type Page<T> = { items: T[]; limit: number; nextCursor: string | null; hasMore: boolean };

export function readLimit(query: URLSearchParams, add: (path: string, message: string) => void): number {
  const text = query.get("limit");
  if (text === null) return 50;
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit < 1 || limit > 100) {
    add("limit", "Must be an integer from 1 to 100.");
    return 50;
  }
  return limit;
}

export function readPageParams(query: URLSearchParams): PageParams {
  const r = createReader();
  const limit = readLimit(query, r.add);
  const cursor = query.get("cursor");
  let beforeSeq: number | null = null;
  if (cursor !== null) {
    const decoded = /^s:(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!decoded) r.add("cursor", "Is not a cursor returned by this API.");
    else beforeSeq = Number(decoded[1]);
  }
  r.fail("The query parameters are invalid; see errors.");
  return { limit, beforeSeq };
}

// `items` must already be filtered and sorted by seq descending.
export function pageOf<T extends { seq: number }>(items: T[], params: PageParams): Page<T> {
  const before = params.beforeSeq;
  const start = before === null ? items : items.filter((item) => item.seq < before);
  const page = start.slice(0, params.limit);
  const hasMore = start.length > page.length;
  const last = page[page.length - 1];
  return {
    items: page,
    limit: params.limit,
    hasMore,
    nextCursor: hasMore && last ? Buffer.from(`s:${last.seq}`).toString("base64url") : null,
  };
}
