import "server-only";
import type { Tx } from "@/lib/db/client";
import { periodEnd, periodStart, previousPeriod } from "./periods";

/**
 * Where an open month's journal reads from: its own movements, and those of the locked months
 * just before it that reached the app after they were locked (late: this is the first open month
 * after theirs). A locked month earlier than an open one keeps its late movements for that one.
 */
export async function bookingRange(tx: Tx, period: string): Promise<{ from: Date; start: Date; to: Date }> {
  const locked = new Set(
    (await tx.bookPeriod.findMany({ where: { period: { lt: period } }, select: { period: true } })).map((p) => p.period),
  );
  let first = period;
  while (locked.has(previousPeriod(first))) first = previousPeriod(first);
  return { from: periodStart(first), start: periodStart(period), to: periodEnd(period) };
}
