import "server-only";
import { Prisma, type Tx } from "@/lib/db/client";
import type { BookedMovement } from "./journal-lines";

/**
 * Every movement of the wallet the journal books, one row each: WalletMovement (kept by triggers
 * from orders, credits and withdrawals) with the order's client reference or the withdrawal's
 * upstream id and quoted fee, and each day's difference the reconciliation left open (as a
 * movement at the day's last instant; one later explained or re-run away is reversed through the
 * booked part below).
 */
const MOVEMENTS = Prisma.sql`
  SELECT m."sourceId", m."kind", m."currency", m."at", m."deltaMinor",
         w."feeMinor", coalesce(o."clientReference", w."upstreamId") AS "reference"
  FROM "WalletMovement" m
  LEFT JOIN "Order" o ON m."kind" IN ('order', 'order_release', 'refund') AND o."id" = m."sourceId"
  LEFT JOIN "WithdrawalRequest" w ON m."kind" IN ('withdrawal', 'withdrawal_release') AND w."id" = m."sourceId"
  UNION ALL
  SELECT r."day" || ' ' || r."currency", 'reconciliation_difference', r."currency",
         (r."day"::date + 1)::timestamp - interval '1 millisecond', r."differenceMinor", NULL, NULL
  FROM "WalletReconciliation" r
  WHERE r."status" = 'difference' AND r."differenceMinor" <> 0`;

export type Cursor = { currency: string; at: Date; sourceId: string; kind: string };

type Row = Omit<BookedMovement, "late">;

/**
 * What is left to book of the movements between `from` and `to`: each movement less what locked
 * months booked of it already (nothing, a first time; a change since, when its amount moved or it
 * went away), after `after` in currency, time and id order (a journal per currency and day is a
 * run of rows). The one statement the export reads in batches and a lock copies whole.
 */
export function unbookedSql(range: { from: Date; to: Date; after: Cursor | null }): Prisma.Sql {
  const { from, to, after } = range;
  const keyset = after
    ? Prisma.sql`AND ("currency", "at", "sourceId", "kind") > (${after.currency}, ${after.at}, ${after.sourceId}, ${after.kind})`
    : Prisma.empty;
  return Prisma.sql`
    WITH current AS (
      SELECT * FROM (${MOVEMENTS}) s WHERE "at" >= ${from} AND "at" < ${to} ${keyset}
    ), booked AS (
      SELECT "sourceId", "kind", min("currency") AS "currency", min("at") AS "at", sum("deltaMinor")::bigint AS "deltaMinor",
             max("feeMinor") AS "feeMinor", max("reference") AS "reference"
      FROM "BookEntry" WHERE "at" >= ${from} AND "at" < ${to} ${keyset}
      GROUP BY "sourceId", "kind"
    )
    SELECT "sourceId", "kind",
           coalesce(c."currency", b."currency") AS "currency", coalesce(c."at", b."at") AS "at",
           (coalesce(c."deltaMinor", 0) - coalesce(b."deltaMinor", 0))::bigint AS "deltaMinor",
           coalesce(c."feeMinor", b."feeMinor") AS "feeMinor", coalesce(c."reference", b."reference") AS "reference"
    FROM current c FULL JOIN booked b USING ("sourceId", "kind")
    WHERE coalesce(c."deltaMinor", 0) <> coalesce(b."deltaMinor", 0)
    ORDER BY 3, 4, 1, 2`;
}

/** `limit` rows of `unbookedSql`. */
export async function unbookedMovements(
  tx: Tx,
  range: { from: Date; to: Date; after: Cursor | null; limit: number },
): Promise<Row[]> {
  return tx.$queryRaw<Row[]>(Prisma.sql`${unbookedSql(range)} LIMIT ${range.limit}`);
}
