import "server-only";
import { db } from "@/lib/db/client";
import type { OrderSync } from "@/lib/db/generated/client";
import { upstream } from "@/lib/upstream/service";

/**
 * The import and sync position belongs to the upstream it was read from: its base URL.
 * Pointing the app at another upstream starts a fresh import there; rotating the key of
 * the same one does not. (Two workspaces behind one base URL would share a row: the
 * contract gives no workspace id to tell them apart.)
 */
export function syncSource(): string {
  return upstream().transport.baseUrl;
}

/** The row of the configured upstream; created (import "running") on first start against it. */
export async function ensureSyncState(): Promise<OrderSync> {
  const source = syncSource();
  await db().orderSync.createMany({ data: [{ source }], skipDuplicates: true });
  return db().orderSync.findUniqueOrThrow({ where: { source } });
}

export const IMPORT_STATES = ["running", "paused", "done"] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

const MINUTE_MS = 60_000;
export const minuteOf = (ms: number) => new Date(ms - (ms % MINUTE_MS));
export const msToNextMinute = (ms: number) => MINUTE_MS - (ms % MINUTE_MS);
