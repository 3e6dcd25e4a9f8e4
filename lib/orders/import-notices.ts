import "server-only";
import type { OrderSync } from "@/lib/db/generated/client";
import { db, type Tx } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";

/** A running import that has mirrored no page for this long is stuck (its pacing reads one every few seconds). */
export const IMPORT_STUCK_AFTER_MS = 15 * 60_000;

/** The history import's last page recorded: admins hear in the same transaction, once per import (its start names it). */
export async function noticeImportFinished(
  tx: Tx,
  row: Pick<OrderSync, "source" | "importStartedAt">,
  orders: number,
): Promise<void> {
  await notify(tx, "import.finished", { source: row.source, startedAt: row.importStartedAt, orders });
}

/**
 * Observed by the import's minute keeper (lib/orders/jobs.ts): a running import with no page
 * mirrored for IMPORT_STUCK_AFTER_MS. The notification is the only write, keyed by the last
 * progress, so one stall notifies once and a later stall (after progress) again.
 */
export async function noticeImportIfStuck(row: OrderSync, now = new Date()): Promise<boolean> {
  if (row.importState !== "running") return false;
  const progress = row.importLastPageAt ?? row.importStartedAt;
  const idleMs = now.getTime() - progress.getTime();
  if (idleMs < IMPORT_STUCK_AFTER_MS) return false;
  await db().$transaction((tx) =>
    notify(tx, "import.stuck", {
      source: row.source,
      lastProgressAt: progress,
      idleMinutes: Math.floor(idleMs / 60_000),
      ordersSoFar: row.importOrders,
      lastError: row.lastError,
    }),
  );
  return true;
}
