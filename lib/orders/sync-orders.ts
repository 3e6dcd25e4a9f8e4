import "server-only";
import { db } from "@/lib/db/client";
import { orderSyncConfig } from "@/lib/env";
import { spentByJob, upstream } from "@/lib/upstream/service";
import { mirrorOrders } from "./mirror";
import { OPEN_STATUSES } from "./states";
import { ensureSyncState } from "./sync-state";

/** At most this many pages a pass; more means a burst the next pass continues to cover. */
const MAX_PAGES = 20;
/** An order still open in the mirror is looked for by the sync only this long after its creation. */
const OPEN_LOOKBACK_MS = 6 * 3_600_000;

/**
 * The safety net for missed webhooks (endpoint down past the retry window, a secret rotated
 * wrongly): reads every order created since the high-water mark minus an overlap — and
 * since the oldest order the mirror still holds open, so a missed "fulfilled" or "failed"
 * is caught in the same pass — and mirrors what is new or changed. The upstream's list
 * filters by creation time only, so a change to an old, final order (a refund weeks later)
 * is caught only by its webhook or an admin's full re-import (Settings).
 *
 * Interval (ORDERS_SYNC_INTERVAL_SECONDS, default 120 s) against the 120/min budget: a pass
 * costs one call per 100 orders in its window, so one call at ordinary volumes, i.e. about
 * 0.5 calls a minute, under 1 % of the limit, at background priority. A missed webhook
 * shows at the latest one interval later. Waits for the history import's first page,
 * which sets the high-water mark.
 */
export async function syncOrders(): Promise<{ pages: number; inserted: number; changed: number; skipped?: "no_mark" }> {
  const { syncOverlapMs } = orderSyncConfig();
  const row = await ensureSyncState();
  if (!row.highWaterMark) return { pages: 0, inserted: 0, changed: 0, skipped: "no_mark" };

  const oldestOpen = await db().order.findFirst({
    where: { status: { in: [...OPEN_STATUSES] }, upstreamCreatedAt: { gte: new Date(Date.now() - OPEN_LOOKBACK_MS) } },
    orderBy: { upstreamCreatedAt: "asc" },
    select: { upstreamCreatedAt: true },
  });
  const fromMs = Math.min(row.highWaterMark.getTime() - syncOverlapMs, oldestOpen?.upstreamCreatedAt.getTime() ?? Infinity);
  const createdFromUtc = new Date(fromMs).toISOString();

  let cursor: string | undefined;
  let newest = row.highWaterMark;
  let pages = 0;
  let inserted = 0;
  let changed = 0;
  let complete = false;
  while (pages < MAX_PAGES) {
    const { data } = await upstream().listOrders(
      { createdFromUtc, limit: 100, cursor },
      { priority: "background", deadlineMs: 60_000, by: spentByJob("orders-sync") },
    );
    pages += 1;
    const result = await mirrorOrders(data.items);
    inserted += result.inserted;
    changed += result.changed;
    for (const order of data.items) if (Date.parse(order.createdAtUtc) > newest.getTime()) newest = new Date(order.createdAtUtc);
    if (!data.hasMore || !data.nextCursor) {
      complete = true;
      break;
    }
    cursor = data.nextCursor;
  }
  // Only a complete walk moves the mark: an unfinished one is walked again from the same place.
  await db().orderSync.update({
    where: { source: row.source },
    data: { lastSyncAt: new Date(), lastSyncOrders: inserted + changed },
  });
  if (complete)
    await db().orderSync.updateMany({
      where: { source: row.source, highWaterMark: { lt: newest } },
      data: { highWaterMark: newest },
    });
  return { pages, inserted, changed };
}
