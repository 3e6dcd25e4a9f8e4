import "server-only";
import { db } from "@/lib/db/client";
import type { BalanceEvent } from "./balance-history";

/** Recorded `wallet.credited` webhooks in one currency since `from`, at the time this app recorded each. */
export async function creditEvents(query: { currency: string; from: Date }): Promise<BalanceEvent[]> {
  const rows = await db().walletCredit.findMany({ where: { currency: query.currency, createdAt: { gt: query.from } } });
  return rows.map((c) => ({ at: c.createdAt, deltaMinor: c.amountMinor, kind: "credit" }));
}
