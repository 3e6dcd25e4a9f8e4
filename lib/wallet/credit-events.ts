import "server-only";
import { db } from "@/lib/db/client";
import type { BalanceEvent } from "./balance-history";

/** Recorded `wallet.credited` webhooks in one currency since `from`, with the balance each reported. */
export async function creditEvents(query: { currency: string; from: Date }): Promise<BalanceEvent[]> {
  const rows = await db().walletCredit.findMany({ where: { currency: query.currency, occurredAt: { gt: query.from } } });
  return rows.map((c) => ({ at: c.occurredAt, deltaMinor: c.amountMinor, kind: "credit", balanceAfterMinor: c.availableBalanceMinor }));
}
