import "server-only";
import { OPEN_ROW_STATES } from "@/lib/bulk-orders/states";
import { Prisma, type Tx } from "@/lib/db/client";
import type { OrderStatus } from "@/lib/orders/states";
import { utcDayStart, utcMonthStart } from "./spend-window";

export type Limits = { perOrderMinor: bigint | null; perDayMinor: bigint | null; perMonthMinor: bigint | null; scope: string };

/** The limits that apply to a buyer in a currency: their own row, else the workspace default, else none. */
export async function limitsFor(tx: Tx, staffId: string, currency: string): Promise<Limits | null> {
  const rows = await tx.spendLimit.findMany({ where: { currency, scope: { in: [staffId, "workspace"] } } });
  const row = rows.find((r) => r.scope === staffId) ?? rows.find((r) => r.scope === "workspace");
  return row
    ? { perOrderMinor: row.perOrderMinor, perDayMinor: row.perDayMinor, perMonthMinor: row.perMonthMinor, scope: row.scope }
    : null;
}

/** Whether any limit could apply to this buyer (theirs or the default, any currency). */
export async function hasAnyLimit(tx: Tx, staffId: string): Promise<boolean> {
  return (await tx.spendLimit.count({ where: { scope: { in: [staffId, "workspace"] } } })) > 0;
}

export type Counted = { today: bigint; thisMonth: bigint };

/** Orders that were never paid for, or paid back: they spend nothing against a limit. */
const UNSPENT_STATUSES: readonly OrderStatus[] = ["failed", "refunded"];

/**
 * What counts against a buyer's limits in one currency, today and this month (UTC): the one
 * rule every reader uses (the limit check, the order form's "left", an approver's card).
 * Everything counts once, as what it is now:
 * - an order as the order: the buyer's orders in the mirror at their total, by mirror time (the
 *   app's clock), except failed and refunded ones, whether or not a charge was ever written for
 *   it (so a limit set mid-month sees the month's orders);
 * - what may still become an order by its held charge: an order sent and not yet heard of, a
 *   request awaiting approval or being placed (`spend:<id>`), a charged bulk file's rows not yet
 *   orders (`bulk:<id>`, at their previewed totals), until it becomes an order (`spent`, in the
 *   mirror's transaction) or never will (`released`).
 * `besides` leaves one charge out: what an approver reads as spent before the request in front.
 */
export async function countedSpend(
  tx: Tx,
  staffId: string,
  currency: string,
  now = new Date(),
  besides: string | null = null,
): Promise<Counted> {
  const day = utcDayStart(now);
  const month = utcMonthStart(now);
  const notBesides = besides === null ? Prisma.empty : Prisma.sql`AND c."source" <> ${besides}`;
  const [row] = await tx.$queryRaw<{ today: bigint | null; month: bigint | null }[]>`
    WITH counted AS (
      SELECT o."totalMinor" AS amount, o."createdAt" AS at FROM "Order" o
      WHERE o."placedById" = ${staffId} AND o."currency" = ${currency} AND o."createdAt" >= ${month}
        AND o."status" <> ALL(${UNSPENT_STATUSES})
      UNION ALL
      SELECT c."amountMinor", c."chargedAt" FROM "SpendCharge" c
      WHERE c."staffId" = ${staffId} AND c."currency" = ${currency} AND c."chargedAt" >= ${month}
        AND c."state" = 'held' AND c."source" NOT LIKE 'bulk:%' ${notBesides}
      UNION ALL
      SELECT r."quotedTotalMinor", c."chargedAt" FROM "SpendCharge" c
      JOIN "BulkOrderRow" r ON r."bulkOrderId" = substring(c."source" from 6) AND r."currency" = c."currency"
      WHERE c."staffId" = ${staffId} AND c."currency" = ${currency} AND c."chargedAt" >= ${month}
        AND c."state" = 'held' AND c."source" LIKE 'bulk:%' ${notBesides}
        AND r."state" = ANY(${OPEN_ROW_STATES}) AND r."quotedTotalMinor" IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM "Order" o WHERE o."idempotencyKey" = r."idempotencyKey")
    )
    SELECT SUM(amount) FILTER (WHERE at >= ${day})::bigint AS today, SUM(amount)::bigint AS month FROM counted`;
  return { today: row?.today ?? 0n, thisMonth: row?.month ?? 0n };
}
