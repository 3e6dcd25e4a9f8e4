import "server-only";
import { cache } from "react";
import { sqlQuery } from "@/lib/db/client";
import { DEFAULT_SETTINGS, settingsSchema, type Settings } from "./schema";

/**
 * Current thresholds: stored values that still validate, defaults for the rest.
 *
 * Read once per page view: the layout's low-balance banner, the page and the spend it shows
 * all ask, and React's `cache` (scoped to one server render, nothing kept between requests)
 * hands the later callers the first one's answer; the product page read them three times.
 * Outside a render (route handlers, jobs) `cache` calls straight through, so each call reads
 * the database; where it remembers, it is for that one request. Callers must not change the
 * object they get.
 */
export const getSettings = cache(readSettings);

const SELECT_SETTINGS = `SELECT "key", "value" FROM "Setting" WHERE "key" = ANY($1::text[])`;

/**
 * The thresholds as stored now, never from a render's memo (for a change that reads back what
 * it wrote). Every page view of staff who can order reads them (the low-balance banner), so
 * the statement goes through node-postgres (`sqlQuery`, prepared once per connection), as the
 * session lookup does: about a quarter of the CPU of Prisma's `findMany`
 * (docs/decisions/0010-reads-at-100000-orders.md).
 */
export async function readSettings(): Promise<Settings> {
  const rows = await sqlQuery<{ key: string; value: unknown }>(SELECT_SETTINGS, [Object.keys(DEFAULT_SETTINGS)]);
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    const key = row.key as keyof Settings;
    const parsed = settingsSchema.shape[key].safeParse(row.value);
    if (parsed.success) (settings as Record<string, unknown>)[key] = parsed.data;
  }
  return settings;
}
