import "server-only";
import { db, Prisma } from "@/lib/db/client";

/**
 * How a currency's report ties to the wallet's movements of the same period (WalletMovement,
 * kept by triggers from the orders: an order's total leaves when this app records it; a failed
 * order's reservation and a refunded order's total come back later, at the time the upstream's
 * own times say). Minor units.
 * - walletMinor: the orders' movements of the period, summed (negative: money out);
 * - returnedLaterMinor: failed or refunded orders of the period whose money came back after it;
 * - returnedEarlierMinor: money that came back in the period for orders recorded before it.
 * The report's net spend (fulfilled + in progress) + returnedLater − returnedEarlier = −walletMinor,
 * to the cent; `unexplainedMinor` is what is left when it does not (never, while the triggers hold).
 */
export type WalletTie = {
  currency: string;
  walletMinor: bigint;
  returnedLaterMinor: bigint;
  returnedEarlierMinor: bigint;
  unexplainedMinor: bigint;
};

/** The order part of the report per currency: what was recorded, and what of it failed or was refunded. */
export type ReportedOrders = { currency: string; netMinor: bigint; failedOrRefundedMinor: bigint };

const ORDER_KINDS = ["order", "order_release", "refund"];

export async function tieToWallet(range: { start: Date; end: Date }, reported: ReportedOrders[]): Promise<WalletTie[]> {
  // Every currency the wallet has moved in (a loose scan of its index), so that a currency with only
  // money coming back this period is not missed.
  const currencies = (
    await db().$queryRaw<{ currency: string }[]>`
      WITH RECURSIVE c AS (
        SELECT min("currency") AS "currency" FROM "WalletMovement"
        UNION ALL
        SELECT (SELECT min("currency") FROM "WalletMovement" WHERE "currency" > c."currency") FROM c WHERE c."currency" IS NOT NULL
      )
      SELECT "currency" FROM c WHERE "currency" IS NOT NULL`
  ).map((r) => r.currency);
  if (currencies.length === 0) return [];
  const moved = await db().$queryRaw<{ currency: string; kind: string; recordedBefore: boolean; minor: bigint }[]>`
    SELECT m."currency", m."kind", coalesce(o."createdAt" < ${range.start}, false) AS "recordedBefore", sum(m."deltaMinor")::bigint AS "minor"
    FROM "WalletMovement" m LEFT JOIN "Order" o ON o."id" = m."sourceId" AND m."kind" <> 'order'
    WHERE m."currency" IN (${Prisma.join(currencies)}) AND m."at" >= ${range.start} AND m."at" < ${range.end}
      AND m."kind" IN (${Prisma.join(ORDER_KINDS)})
    GROUP BY 1, 2, 3`;

  const all = new Set([...moved.map((m) => m.currency), ...reported.map((r) => r.currency)]);
  return [...all].sort().map((currency) => {
    const of = moved.filter((m) => m.currency === currency);
    const walletMinor = of.reduce((sum, m) => sum + m.minor, 0n);
    const returnedWithin = of.filter((m) => m.kind !== "order" && !m.recordedBefore).reduce((sum, m) => sum + m.minor, 0n);
    const returnedEarlierMinor = of.filter((m) => m.kind !== "order" && m.recordedBefore).reduce((sum, m) => sum + m.minor, 0n);
    const report = reported.find((r) => r.currency === currency) ?? { netMinor: 0n, failedOrRefundedMinor: 0n };
    const returnedLaterMinor = report.failedOrRefundedMinor - returnedWithin;
    return {
      currency,
      walletMinor,
      returnedLaterMinor,
      returnedEarlierMinor,
      unexplainedMinor: report.netMinor + returnedLaterMinor - returnedEarlierMinor + walletMinor,
    };
  });
}
