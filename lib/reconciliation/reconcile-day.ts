import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import { logger } from "@/lib/log";
import { spentByJob } from "@/lib/upstream/service";
import { readBalances } from "@/lib/wallet/read-balances";
import { syncOpenWithdrawals } from "@/lib/withdrawals/sync-withdrawals";
import { dayMovements } from "./day-movements";
import { buildStatement, dayBounds, dayEndClosing, netMovement, utcDay } from "./day-statement";
import { explainDifference, type Explained } from "./explain-difference";

type DayRead = {
  readAt: Date;
  currency: string;
  asOf: Date | null;
  total: bigint;
  available: bigint;
  reserved: bigint;
  pending: bigint;
};
export type ReconciliationRecord = Prisma.WalletReconciliationGetPayload<object>;

/**
 * Reconciles one UTC day (`YYYY-MM-DD`, upstream clock) in every currency and keeps it,
 * replacing an earlier run of the same day. The day-end read is taken once (the worker
 * takes it at 00:05 UTC, lib/reconciliation/jobs.ts) and kept; a re-run reuses it and
 * recomputes everything else from the app's records as they are now, so running a day
 * twice with nothing new gives the same rows. Withdrawals are brought up to date first,
 * so a payout the app has not yet seen is not taken for a difference.
 */
export async function reconcileDay(day: string): Promise<ReconciliationRecord[]> {
  await syncOpenWithdrawals({ priority: "background" });
  const reads = await dayEndReads(day);
  const { start, end } = dayBounds(day);
  const rows: ReconciliationRecord[] = [];
  for (const read of reads) {
    // Movements the app knows of between the day end and the read (upstream clock, dayEndReads) are rolled back.
    const readEnd = read.asOf && read.asOf >= end ? new Date(read.asOf.getTime() + 1) : end;
    const [movements, afterDay, previous] = await Promise.all([
      dayMovements({ currency: read.currency, from: start, to: end }),
      dayMovements({ currency: read.currency, from: end, to: readEnd }),
      db().walletReconciliation.findUnique({ where: { day_currency: { day: utcDay(start, 1), currency: read.currency } } }),
    ]);
    const statement = buildStatement({
      openingMinor: previous?.closingMinor ?? null,
      closingMinor: dayEndClosing(read.total, afterDay),
      movements,
    });
    const explained: Explained =
      statement.status === "difference"
        ? await explainDifference({ currency: read.currency, from: start, to: readEnd }).catch((error: unknown) => {
            logger.warn("reconciliation: the upstream could not be asked what explains a difference", {
              day,
              error: String(error),
            });
            return { items: [], complete: false };
          })
        : { items: [], complete: true };
    const data = {
      ...statement,
      readAt: read.readAt,
      readAsOf: read.asOf,
      readTotalMinor: read.total,
      readAvailableMinor: read.available,
      readReservedMinor: read.reserved,
      readPendingMinor: read.pending,
      afterDayMinor: netMovement(afterDay),
      explanations: explained.items,
      explanationNote: explained.complete ? null : "Only part of the upstream's history was searched for explanations.",
    };
    rows.push(
      await db().$transaction(async (tx) => {
        const row = await tx.walletReconciliation.upsert({
          where: { day_currency: { day, currency: read.currency } },
          create: { day, currency: read.currency, ...data },
          update: data,
        });
        // Finance hears of a difference with the row that shows it; a re-run of the day adds nothing.
        if (statement.status === "difference" && statement.differenceMinor !== null)
          await notify(tx, "reconciliation.difference", {
            day,
            currency: read.currency,
            differenceMinor: statement.differenceMinor,
          });
        return row;
      }),
    );
  }
  return rows;
}

/** The day's kept read, or a fresh one of every currency when the day has none yet. */
async function dayEndReads(day: string): Promise<DayRead[]> {
  const kept = await db().walletReconciliation.findMany({ where: { day }, orderBy: { currency: "asc" } });
  if (kept.length)
    return kept.map((r) => ({
      readAt: r.readAt,
      currency: r.currency,
      asOf: r.readAsOf,
      total: r.readTotalMinor,
      available: r.readAvailableMinor,
      reserved: r.readReservedMinor,
      pending: r.readPendingMinor,
    }));
  const read = await readBalances({ fresh: true, priority: "background", by: spentByJob("reconciliation") });
  // The read's time on the upstream clock: its latest movement in any currency (no currency
  // moved after it, and one currency's last movement may be older than the read).
  const latest = Math.max(0, ...read.items.map((b) => (b.updatedAt ? Date.parse(b.updatedAt) : 0)));
  return read.items.map((b) => ({
    readAt: new Date(read.readAt),
    currency: b.currency,
    asOf: latest ? new Date(latest) : null,
    total: BigInt(b.totalMinor),
    available: BigInt(b.availableMinor),
    reserved: BigInt(b.reservedMinor),
    pending: BigInt(b.pendingWithdrawalMinor),
  }));
}
