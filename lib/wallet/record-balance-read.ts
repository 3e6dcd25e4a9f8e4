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
  try {
    for (const item of items) {
      const available = BigInt(item.availableMinor);
      const last = await db().balanceRead.findFirst({
        where: { currency: item.currency },
        orderBy: { readAt: "desc" },
        select: { availableMinor: true, readAt: true },
      });
      if (
        last &&
        last.availableMinor === available &&
        readAt.getTime() - last.readAt.getTime() < SAME_READ_INTERVAL_MS &&
        readAt >= last.readAt
      )
        continue;
      await db().balanceRead.create({ data: { currency: item.currency, availableMinor: available, readAt } });
    }
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
