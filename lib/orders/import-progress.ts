import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { orderSyncConfig } from "@/lib/env";
import { ensureSyncState, minuteOf, type ImportState } from "./sync-state";
import { IMPORT_PAGE_SIZE } from "./import-orders-page";

/** What an admin sees of the history import and the safety-net sync (Settings). */
export type ImportProgress = {
  state: ImportState;
  ordersImported: number;
  pagesRead: number;
  /** The upstream's list does not say how many pages remain: only whether more do. */
  morePages: boolean;
  pageSize: number;
  callsThisMinute: number;
  callsPerMinuteCap: number;
  startedAt: string;
  finishedAt: string | null;
  lastPageAt: string | null;
  lastError: string | null;
  sync: { intervalSeconds: number; lastRunAt: string | null; lastOrders: number; highWaterMark: string | null };
};

export async function getImportProgress(actor: Actor): Promise<ImportProgress> {
  assertCan(actor, "settings.read");
  const config = orderSyncConfig();
  const row = await ensureSyncState();
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    state: row.importState as ImportState,
    ordersImported: row.importOrders,
    pagesRead: row.importPages,
    morePages: row.importState !== "done",
    pageSize: IMPORT_PAGE_SIZE,
    callsThisMinute: row.callsWindowStart?.getTime() === minuteOf(Date.now()).getTime() ? row.callsInWindow : 0,
    callsPerMinuteCap: config.importCallsPerMinute,
    startedAt: row.importStartedAt.toISOString(),
    finishedAt: iso(row.importFinishedAt),
    lastPageAt: iso(row.importLastPageAt),
    lastError: row.lastError,
    sync: {
      intervalSeconds: config.syncIntervalSeconds,
      lastRunAt: iso(row.lastSyncAt),
      lastOrders: row.lastSyncOrders,
      highWaterMark: iso(row.highWaterMark),
    },
  };
}
