import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import type { CounterName } from "./metric-catalog";

/**
 * The app's event counters (orders placed and failed, reveals, sign-in failures, lock-outs,
 * upstream calls, budget refusals), kept in the database: every web process and every worker
 * adds its counts to the same rows, so /metrics and the OTLP export give one whole answer for
 * the app whichever process is asked, and a restart loses nothing (docs/decisions/
 * 2026-11-28-telemetry.md). Counted in memory and written as one upsert every few seconds, off
 * the request path, as lib/upstream/call-counts.ts does. Nothing is counted, and no timer runs,
 * unless telemetry is configured (METRICS_TOKEN or OTEL_EXPORTER_OTLP_ENDPOINT).
 *
 * Labels are stable codes only (an endpoint template, a class, a status, a reason): never an
 * id, an email, a code or a secret.
 */
export type Labels = Record<string, string>;

const FLUSH_EVERY_MS = 5_000;
const pending = new Map<string, number>();
let timer: ReturnType<typeof setInterval> | undefined;
let enabled: boolean | undefined;

export function telemetryConfigured(): boolean {
  if (enabled === undefined) {
    try {
      const env = getEnv();
      enabled = Boolean(env.METRICS_TOKEN || env.OTEL_EXPORTER_OTLP_ENDPOINT);
    } catch {
      enabled = false;
    }
  }
  return enabled;
}

/** One event (or `n`), under a counter of lib/telemetry/metric-catalog.ts. */
export function countEvent(name: CounterName, labels: Labels = {}, n = 1): void {
  if (!telemetryConfigured() || n <= 0) return;
  const key = `${name}\u0000${labelKey(labels)}`;
  pending.set(key, (pending.get(key) ?? 0) + n);
  timer ??= setInterval(() => void flushEventCounts(), FLUSH_EVERY_MS);
  timer.unref?.();
}

/** Labels as one canonical text (sorted keys), the row's key beside the counter's name. */
export function labelKey(labels: Labels): string {
  return JSON.stringify(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b))));
}

/** Writes what has been counted so far: every few seconds, and before a scrape answers. */
export async function flushEventCounts(): Promise<void> {
  if (pending.size === 0) return;
  // In one order in every process: two flushes never wait on each other's rows crosswise.
  const batch = [...pending.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  pending.clear();
  const rows = batch.map(([key, n]) => {
    const [name, labels] = key.split("\u0000") as [string, string];
    return Prisma.sql`(${name}, ${labels}, ${n}, now())`;
  });
  try {
    await db().$executeRaw`
      INSERT INTO "TelemetryCount" ("name", "labels", "value", "updatedAt") VALUES ${Prisma.join(rows)}
      ON CONFLICT ("name", "labels")
      DO UPDATE SET "value" = "TelemetryCount"."value" + EXCLUDED."value", "updatedAt" = now()`;
  } catch (error) {
    // Kept for the next flush rather than lost; a counter is never worth failing anything for.
    for (const [key, n] of batch) pending.set(key, (pending.get(key) ?? 0) + n);
    logger.warn("telemetry counts not written; kept for the next try", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
