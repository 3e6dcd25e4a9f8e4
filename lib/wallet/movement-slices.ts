import "server-only";
import { db, Prisma } from "@/lib/db/client";
import type { MovementSlice } from "./balance-slices";

type Row = { slice: number; sum: string; count: bigint; changes: bigint; last: bigint | null };

/**
 * The movements of one currency from `since` to `now` (this app's clock), summed in the
 * database between `cuts` (lib/wallet/balance-slices.ts), with exactly the movements
 * orderEvents, creditEvents and withdrawalEvents read one by one: an order's total
 * reserved when recorded and released on failure or refund; a credit; a withdrawal held
 * when sent and released when cancelled after sending.
 */
export async function movementSlices(query: {
  currency: string;
  since: Date;
  now: Date;
  cuts: readonly number[];
}): Promise<MovementSlice[]> {
  const { currency, since, now } = query;
  const cuts = `{${query.cuts.join(",")}}`;
  // When the upstream says it failed or was refunded, on this app's clock (orderToEvents).
  const released = Prisma.sql`o."createdAt" + greatest(interval '0', o."upstreamUpdatedAt" - o."upstreamCreatedAt")`;
  const rows = await db().$queryRaw<Row[]>(Prisma.sql`
    WITH movements AS (
      SELECT o."createdAt" AS at, -o."totalMinor" AS delta
      FROM "Order" o WHERE o."currency" = ${currency} AND o."createdAt" > ${since}
      UNION ALL
      -- Released: failed or refunded orders recorded in the period, and those recorded before
      -- it but updated since (createdAt > since OR updatedAt > since, as orderEvents asks).
      SELECT ${released}, o."totalMinor"
      FROM "Order" o WHERE o."currency" = ${currency} AND o."createdAt" > ${since} AND o."status" IN ('failed', 'refunded')
      UNION ALL
      SELECT released.at, released.delta FROM (
        SELECT ${released} AS at, o."totalMinor" AS delta
        FROM "Order" o
        WHERE o."currency" = ${currency} AND o."status" IN ('failed', 'refunded')
          AND o."updatedAt" > ${since} AND o."createdAt" <= ${since}
      ) released WHERE released.at > ${since}
      UNION ALL
      SELECT c."createdAt", c."amountMinor" FROM "WalletCredit" c WHERE c."currency" = ${currency} AND c."createdAt" > ${since}
      UNION ALL
      SELECT w."sendStartedAt", -w."amountMinor" FROM "WithdrawalRequest" w
      WHERE w."currency" = ${currency} AND w."upstreamId" IS NOT NULL AND w."sendStartedAt" IS NOT NULL
        AND (w."sendStartedAt" > ${since} OR w."cancelledAt" > ${since})
      UNION ALL
      SELECT w."cancelledAt", w."amountMinor" FROM "WithdrawalRequest" w
      WHERE w."currency" = ${currency} AND w."upstreamId" IS NOT NULL AND w."sendStartedAt" IS NOT NULL
        AND w."state" = 'cancelled' AND w."cancelledAt" IS NOT NULL
        AND (w."sendStartedAt" > ${since} OR w."cancelledAt" > ${since})
    ), timed AS (
      SELECT (extract(epoch FROM m.at) * 1000)::bigint AS ms, m.delta FROM movements m WHERE m.at <= ${now}
    )
    SELECT width_bucket(t.ms, ${cuts}::bigint[]) AS "slice", sum(t.delta)::text AS "sum", count(*) AS "count",
           count(*) FILTER (WHERE t.delta <> 0) AS "changes", max(t.ms) FILTER (WHERE t.delta <> 0) AS "last"
    FROM timed t GROUP BY 1`);
  return rows.map((r) => ({
    slice: Number(r.slice),
    sumMinor: BigInt(r.sum),
    count: Number(r.count),
    changes: Number(r.changes),
    lastChangeAt: r.last === null ? null : Number(r.last),
  }));
}
