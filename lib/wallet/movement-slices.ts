import "server-only";
import { db, Prisma } from "@/lib/db/client";
import type { MovementSlice } from "./balance-slices";

type Row = { slices: string };

/**
 * The movements of one currency after `since` and up to `now` (this app's clock), summed in
 * the database between `cuts` (lib/wallet/balance-slices.ts). The movements are the rows of
 * WalletMovement, which triggers keep from the orders, credits and withdrawals (the rule is
 * written there once: prisma/migrations/20261127120000_wallet_movements), read here summed per
 * instant (WalletMovementInstant, kept from them by triggers too): the cost is one range of one
 * narrow index, a row per instant, however many orders an import recorded at once.
 */
export async function movementSlices(query: {
  currency: string;
  since: Date;
  now: Date;
  cuts: readonly number[];
}): Promise<MovementSlice[]> {
  const { currency, since, now } = query;
  // Sent as milliseconds and turned into timestamps (UTC, as every time here) once, in the
  // database, so rows are compared as timestamps, no arithmetic per row; formatting 2,000
  // dates here cost more than the sums.
  const cuts = `{${query.cuts.join(",")}}`;
  const rows = await db().$queryRaw<Row[]>(Prisma.sql`
    WITH cuts AS (
      -- Through text: array_agg builds an "expanded" array, which width_bucket would flatten
      -- again for every row (10× slower at 2,000 cuts); array_in hands it a flat one, once.
      SELECT array_agg(timestamp 'epoch' + ms * interval '1 millisecond' ORDER BY ms)::text::timestamp[] AS at
      FROM unnest(${cuts}::bigint[]) ms
    ), sliced AS (
      -- An instant lies in one slice: the cuts and the instants are both milliseconds.
      SELECT width_bucket(m."at", (SELECT at FROM cuts)) AS slice, sum(m."deltaMinor") AS sum, sum(m."movements") AS count,
             sum(m."changes") AS changes,
             (extract(epoch FROM max(m."at") FILTER (WHERE m."changes" > 0)) * 1000)::bigint AS last
      FROM "WalletMovementInstant" m
      WHERE m."currency" = ${currency} AND m."at" > ${since} AND m."at" <= ${now}
      GROUP BY 1
    )
    -- One line of text rather than a row per slice: the client's cost is per row. In slice
    -- order: a hash aggregate (PostgreSQL's choice at some sizes) would otherwise hand them
    -- over in any order.
    SELECT coalesce(string_agg(concat_ws(' ', slice, sum, count, changes, coalesce(last, -1)), ',' ORDER BY slice), '') AS "slices"
    FROM sliced`);
  return (rows[0]?.slices ?? "")
    .split(",")
    .filter(Boolean)
    .map((line) => {
      const [slice, sum, count, changes, last] = line.split(" ");
      return {
        slice: Number(slice),
        sumMinor: BigInt(sum!),
        count: Number(count),
        changes: Number(changes),
        lastChangeAt: last === "-1" ? null : Number(last),
      };
    });
}
