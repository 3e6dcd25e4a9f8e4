import "server-only";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";

/** A read equal to the last one recorded this recently is not written again. */
const SAME_READ_INTERVAL_MS = 5 * 60_000;

/**
 * Records what a balance read returned, at this app's time of reading: the anchors the
 * wallet chart is built on (lib/wallet/balance-history.ts). Rows stay small: a currency
 * whose balance has not changed gets a row at most every few minutes. A failure to record
 * is logged and does not fail the read: the chart then anchors on the next one.
 */
export async function recordBalanceReads(
  readAt: Date,
  items: readonly { currency: string; availableMinor: string }[],
): Promise<void> {
  if (items.length === 0) return;
  const currencies = items.map((item) => item.currency);
  const amounts = items.map((item) => BigInt(item.availableMinor).toString());
  try {
    // One statement for every currency (the wallet page waits for it before drawing its chart).
    await db().$executeRaw`
      INSERT INTO "BalanceRead" ("currency", "availableMinor", "readAt")
      SELECT read.currency, read.available, ${readAt}::timestamp
      FROM unnest(${currencies}::text[], ${amounts}::bigint[]) AS read(currency, available)
      WHERE NOT EXISTS (
        SELECT 1 FROM (
          SELECT r."availableMinor", r."readAt" FROM "BalanceRead" r
          WHERE r."currency" = read.currency ORDER BY r."readAt" DESC LIMIT 1
        ) last
        WHERE last."availableMinor" = read.available
          AND last."readAt" <= ${readAt}
          AND last."readAt" > ${readAt}::timestamp - ${SAME_READ_INTERVAL_MS} * interval '1 millisecond'
      )`;
  } catch (error) {
    logger.warn("balance read not recorded", { error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * The reads of one currency that anchor a chart from `from`: the last one before it and all
 * since, oldest first. A busy wallet has thousands in a month: they come back as one line
 * of text, since the database client's cost is per row.
 */
export async function balanceReadsSince(currency: string, from: Date): Promise<{ at: Date; availableMinor: bigint }[]> {
  const [row] = await db().$queryRaw<{ reads: string }[]>`
    SELECT coalesce(string_agg(concat_ws(' ', (extract(epoch FROM r."readAt") * 1000)::bigint, r."availableMinor"), ','
                    ORDER BY r."readAt", r."id"), '') AS "reads"
    FROM (
      (SELECT * FROM "BalanceRead" WHERE "currency" = ${currency} AND "readAt" <= ${from} ORDER BY "readAt" DESC, "id" DESC LIMIT 1)
      UNION ALL
      (SELECT * FROM "BalanceRead" WHERE "currency" = ${currency} AND "readAt" > ${from})
    ) r`;
  return (row?.reads ?? "")
    .split(",")
    .filter(Boolean)
    .map((read) => {
      const [at, availableMinor] = read.split(" ");
      return { at: new Date(Number(at)), availableMinor: BigInt(availableMinor!) };
    });
}
