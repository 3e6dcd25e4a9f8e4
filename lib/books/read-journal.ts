import "server-only";
import type { Tx } from "@/lib/db/client";
import { bookingRange } from "./booking-range";
import type { BookedMovement } from "./journal-lines";
import { periodStart } from "./periods";
import { unbookedMovements, type Cursor } from "./unbooked-movements";

export type JournalBatch = { movements: BookedMovement[]; next: Cursor | null };

/**
 * The movements a month's journal books, a batch at a time in currency, time and id order: a
 * locked month's as it booked them, an open month's as they are now (what is left to book).
 * `locked` is read once by the caller, so that every batch of one export reads the same way.
 */
export async function readJournalBatch(
  tx: Tx,
  query: { period: string; locked: boolean; currency?: string; after: Cursor | null; limit: number },
): Promise<JournalBatch> {
  const batch = query.locked ? await lockedBatch(tx, query) : await openBatch(tx, query);
  return { ...batch, movements: query.currency ? batch.movements.filter((m) => m.currency === query.currency) : batch.movements };
}

async function lockedBatch(
  tx: Tx,
  { period, currency, after, limit }: { period: string; currency?: string; after: Cursor | null; limit: number },
): Promise<JournalBatch> {
  const movements = await tx.bookEntry.findMany({
    where: {
      period,
      ...(currency ? { currency } : {}),
      ...(after
        ? {
            OR: [
              { currency: { gt: after.currency } },
              { currency: after.currency, at: { gt: after.at } },
              { currency: after.currency, at: after.at, sourceId: { gt: after.sourceId } },
              { currency: after.currency, at: after.at, sourceId: after.sourceId, kind: { gt: after.kind } },
            ],
          }
        : {}),
    },
    orderBy: [{ currency: "asc" }, { at: "asc" }, { sourceId: "asc" }, { kind: "asc" }],
    take: limit,
    select: {
      sourceId: true,
      kind: true,
      currency: true,
      at: true,
      deltaMinor: true,
      feeMinor: true,
      reference: true,
      late: true,
    },
  });
  const last = movements[movements.length - 1];
  return {
    movements,
    next:
      movements.length === limit && last
        ? { currency: last.currency, at: last.at, sourceId: last.sourceId, kind: last.kind }
        : null,
  };
}

async function openBatch(
  tx: Tx,
  { period, after, limit }: { period: string; after: Cursor | null; limit: number },
): Promise<JournalBatch> {
  const range = await bookingRange(tx, period);
  const batch = await unbookedMovements(tx, { from: range.from, to: range.to, after, limit });
  const start = periodStart(period);
  return { movements: batch.rows.map((m) => ({ ...m, late: m.at < start })), next: batch.next };
}

/** The day a movement is booked on: its own, or the booking month's first day when it is late. */
export function bookingDay(m: BookedMovement, period: string): string {
  return m.late ? `${period}-01` : m.at.toISOString().slice(0, 10);
}
