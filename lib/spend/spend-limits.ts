import "server-only";
import type { Tx } from "@/lib/db/client";

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

/**
 * What counts against a limit since `from`: charges held (sent or awaiting approval) or spent,
 * never released ones, plus the orders this buyer placed through the app that no charge
 * covers. A buyer with no limit and no threshold orders without a charge (the fast path), so
 * when an admin sets a limit mid-month, what the buyer already placed this month still counts:
 * from the order mirror, by mirror time (the app's clock, as charges are), leaving out orders
 * that failed or were refunded. An order is covered by its own charge (`order:<key>`) or, for a
 * bulk row, by its file's (`bulk:<id>`).
 */
export async function spentSince(tx: Tx, staffId: string, currency: string, from: Date): Promise<bigint> {
  const { _sum } = await tx.spendCharge.aggregate({
    where: { staffId, currency, state: { in: ["held", "spent"] }, chargedAt: { gte: from } },
    _sum: { amountMinor: true },
  });
  const [uncharged] = await tx.$queryRaw<{ total: bigint | null }[]>`
    SELECT SUM(o."totalMinor")::bigint AS total FROM "Order" o
    WHERE o."placedById" = ${staffId} AND o."currency" = ${currency} AND o."createdAt" >= ${from}
      AND o."status" NOT IN ('failed', 'refunded')
      AND NOT EXISTS (SELECT 1 FROM "SpendCharge" c WHERE c."source" = 'order:' || o."idempotencyKey")
      AND NOT EXISTS (
        SELECT 1 FROM "BulkOrderRow" r JOIN "SpendCharge" c ON c."source" = 'bulk:' || r."bulkOrderId"
        WHERE r."idempotencyKey" = o."idempotencyKey"
      )`;
  return (_sum.amountMinor ?? 0n) + (uncharged?.total ?? 0n);
}
