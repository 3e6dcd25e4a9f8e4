import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";

export const RECENT_DEPOSIT_DAYS = 7;

export type RecentDeposits = {
  from: string;
  currencies: { currency: string; count: number; minor: string }[];
  /** The newest few credits, newest first. */
  latest: { id: string; currency: string; minor: string; at: string }[];
};

/**
 * Deposits credited in the last 7 days, from this app's own record of the upstream's
 * wallet.credited events (WalletCredit): no upstream call, so the home page never spends
 * budget or waits on it. A credit the app was never told about shows on the wallet page.
 */
export async function getRecentDeposits(actor: Actor, now = new Date()): Promise<RecentDeposits> {
  assertCan(actor, "wallet.read");
  const from = new Date(now.getTime() - RECENT_DEPOSIT_DAYS * 86_400_000);
  const where = { occurredAt: { gte: from } };
  const [groups, latest] = await Promise.all([
    db().walletCredit.groupBy({ by: ["currency"], where, _count: { _all: true }, _sum: { amountMinor: true } }),
    db().walletCredit.findMany({ where, orderBy: { occurredAt: "desc" }, take: 5 }),
  ]);
  return {
    from: from.toISOString(),
    currencies: groups
      .map((g) => ({ currency: g.currency, count: g._count._all, minor: (g._sum.amountMinor ?? 0n).toString() }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    latest: latest.map((c) => ({
      id: c.eventId,
      currency: c.currency,
      minor: c.amountMinor.toString(),
      at: c.occurredAt.toISOString(),
    })),
  };
}
