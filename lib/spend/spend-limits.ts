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

/** What counts against a limit since `from`: charges held (sent or awaiting approval) or spent, never released ones. */
export async function spentSince(tx: Tx, staffId: string, currency: string, from: Date): Promise<bigint> {
  const { _sum } = await tx.spendCharge.aggregate({
    where: { staffId, currency, state: { in: ["held", "spent"] }, chargedAt: { gte: from } },
    _sum: { amountMinor: true },
  });
  return _sum.amountMinor ?? 0n;
}
