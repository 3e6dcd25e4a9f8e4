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
  const { period, after, limit } = query;
  const movements = query.locked ? await lockedBatch(tx, query) : await openBatch(tx, query);
  const last = movements[movements.length - 1];
  return {
    movements: query.currency ? movements.filter((m) => m.currency === query.currency) : movements,
    next:
      movements.length === limit && last
        ? { currency: last.currency, at: last.at, sourceId: last.sourceId, kind: last.kind }
        : null,
  };
  async function lockedBatch(t: Tx, q: typeof query): Promise<BookedMovement[]> {
    return t.bookEntry.findMany({
      where: {
        period,
        ...(q.currency ? { currency: q.currency } : {}),
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
  }
  async function openBatch(t: Tx, q: typeof query): Promise<BookedMovement[]> {
    const range = await bookingRange(t, period);
    const rows = await unbookedMovements(t, { from: range.from, to: range.to, after: q.after, limit });
    const start = periodStart(period);
    return rows.map((m) => ({ ...m, late: m.at < start }));
  }
}

/** The day a movement is booked on: its own, or the booking month's first day when it is late. */
export function bookingDay(m: BookedMovement, period: string): string {
  return m.late ? `${period}-01` : m.at.toISOString().slice(0, 10);
}
