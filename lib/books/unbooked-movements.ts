import "server-only";
import { Prisma, type Tx } from "@/lib/db/client";
import type { BookedMovement } from "./journal-lines";

export type Cursor = { currency: string; at: Date; sourceId: string; kind: string };

/** A movement with what is left to book of it (`deltaMinor`: its amount less what locked months booked; 0: nothing). */
export type Remainder = Omit<BookedMovement, "late">;

const ORDER = Prisma.sql`ORDER BY "currency", "at", "sourceId", "kind"`;

/**
 * The movements the journal books between `from` and `to`, in currency, time and id order (a
 * journal per currency and day is a run of rows), after `after`, at most `limit` of them when
 * given, each with what is left to book of it: its amount less what locked months booked of it
 * already (all of it, a first time; a change since, when its amount moved; minus all of it, when
 * it went away). The movements are WalletMovement's rows (kept by triggers from orders, credits
 * and withdrawals), each day's difference the reconciliation left open (a movement at the day's
 * last instant) and the booked ones no longer there. Each source is limited before the sums, so
 * a batch reads one index range of WalletMovement, not the month: the export reads it in
 * batches, a lock copies it whole.
 */
export function remaindersSql(range: { from: Date; to: Date; after: Cursor | null; limit?: number }): Prisma.Sql {
  const { from, to, after } = range;
  const keyset = after
    ? Prisma.sql`AND ("currency", "at", "sourceId", "kind") > (${after.currency}, ${after.at}, ${after.sourceId}, ${after.kind})`
    : Prisma.empty;
  const limit = range.limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${range.limit}`;
  return Prisma.sql`
    WITH moved AS (
      (SELECT "sourceId", "kind", "currency", "at", "deltaMinor" FROM "WalletMovement"
       WHERE "at" >= ${from} AND "at" < ${to} ${keyset} ${ORDER} ${limit})
      UNION ALL
      (SELECT * FROM (
         SELECT r."day" || ' ' || r."currency" AS "sourceId", 'reconciliation_difference' AS "kind", r."currency",
                (r."day"::date + 1)::timestamp - interval '1 millisecond' AS "at", r."differenceMinor" AS "deltaMinor"
         FROM "WalletReconciliation" r WHERE r."status" = 'difference' AND r."differenceMinor" <> 0) d
       WHERE "at" >= ${from} AND "at" < ${to} ${keyset} ${ORDER} ${limit})
    ), gone AS (
      -- Booked movements no longer there (an open difference explained since), looked for only
      -- up to the last movement this batch took, so a batch reads its own stretch of BookEntry.
      SELECT e."sourceId", e."kind", min(e."currency") AS "currency", min(e."at") AS "at", 0::bigint AS "deltaMinor"
      FROM "BookEntry" e
      WHERE e."at" >= ${from} AND e."at" < ${to} ${keyset}
        AND ${
          range.limit === undefined
            ? Prisma.sql`true`
            : Prisma.sql`((SELECT count(*) FROM moved) < ${range.limit}
             OR ("currency", "at", "sourceId", "kind") <= (SELECT m."currency", m."at", m."sourceId", m."kind" FROM moved m
                                                          ORDER BY 1 DESC, 2 DESC, 3 DESC, 4 DESC LIMIT 1))`
        }
        AND NOT EXISTS (SELECT 1 FROM "WalletMovement" m WHERE m."sourceId" = e."sourceId" AND m."kind" = e."kind")
        AND NOT EXISTS (SELECT 1 FROM "WalletReconciliation" r
                        WHERE e."kind" = 'reconciliation_difference' AND r."day" || ' ' || r."currency" = e."sourceId"
                          AND r."status" = 'difference' AND r."differenceMinor" <> 0)
      GROUP BY e."sourceId", e."kind"
    ), candidates AS (
      SELECT * FROM (SELECT * FROM moved UNION ALL SELECT * FROM gone) c ${ORDER} ${limit}
    )
    SELECT c."sourceId", c."kind", c."currency", c."at",
           (c."deltaMinor" - coalesce(b."deltaMinor", 0))::bigint AS "deltaMinor",
           coalesce(w."feeMinor", b."feeMinor") AS "feeMinor",
           coalesce(o."clientReference", w."upstreamId", b."reference") AS "reference"
    FROM candidates c
    LEFT JOIN LATERAL (
      SELECT sum(e."deltaMinor")::bigint AS "deltaMinor", max(e."feeMinor") AS "feeMinor", max(e."reference") AS "reference"
      FROM "BookEntry" e WHERE e."sourceId" = c."sourceId" AND e."kind" = c."kind"
    ) b ON true
    -- Looked up by id, row by row (LIMIT keeps the planner from turning them into joins, which
    -- hashed every order for each batch).
    LEFT JOIN LATERAL (
      SELECT o."clientReference" FROM "Order" o WHERE c."kind" IN ('order', 'order_release', 'refund') AND o."id" = c."sourceId" LIMIT 1
    ) o ON true
    LEFT JOIN LATERAL (
      SELECT w."feeMinor", w."upstreamId" FROM "WithdrawalRequest" w
      WHERE c."kind" IN ('withdrawal', 'withdrawal_release') AND w."id" = c."sourceId" LIMIT 1
    ) w ON true
    ${ORDER}`;
}

/**
 * One batch of `remaindersSql`: the movements with something left to book, and where the next
 * batch starts (the last movement looked at, booked or not; null: none left).
 */
export async function unbookedMovements(
  tx: Tx,
  range: { from: Date; to: Date; after: Cursor | null; limit: number },
): Promise<{ rows: Remainder[]; next: Cursor | null }> {
  const rows = await tx.$queryRaw<Remainder[]>(remaindersSql(range));
  const last = rows[rows.length - 1];
  return {
    rows: rows.filter((r) => r.deltaMinor !== 0n),
    next:
      rows.length === range.limit && last
        ? { currency: last.currency, at: last.at, sourceId: last.sourceId, kind: last.kind }
        : null,
  };
}
