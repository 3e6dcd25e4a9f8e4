import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { OPEN_STATES } from "@/lib/withdrawals/states";

export type PendingWithdrawals = {
  /** Per currency: how many and how much, split into "awaiting approval" and "approved, not paid yet". */
  currencies: { currency: string; awaitingCount: number; awaitingMinor: string; inFlightCount: number; inFlightMinor: string }[];
  /** The oldest request still waiting for approval, and when it expires. */
  oldestAwaiting: { id: string; requestedAt: string; expiresAt: string } | null;
};

/** For the finance home page: what is waiting to leave the wallet (one grouped query and one indexed lookup). */
export async function getPendingWithdrawals(actor: Actor): Promise<PendingWithdrawals> {
  assertCan(actor, "withdrawals.read");
  const [groups, oldest] = await Promise.all([
    db().withdrawalRequest.groupBy({
      by: ["currency", "state"],
      // Not yet paid or ended: waiting for a second person, or on their way upstream.
      where: { state: { in: [...OPEN_STATES] } },
      _count: { _all: true },
      _sum: { amountMinor: true },
    }),
    db().withdrawalRequest.findFirst({
      where: { state: "pending" },
      orderBy: { requestedAt: "asc" },
      select: { id: true, requestedAt: true, expiresAt: true },
    }),
  ]);
  const byCurrency = new Map<string, PendingWithdrawals["currencies"][number]>();
  for (const group of groups) {
    const entry = byCurrency.get(group.currency) ?? {
      currency: group.currency,
      awaitingCount: 0,
      awaitingMinor: "0",
      inFlightCount: 0,
      inFlightMinor: "0",
    };
    const sum = group._sum.amountMinor ?? 0n;
    if (group.state === "pending") {
      entry.awaitingCount += group._count._all;
      entry.awaitingMinor = (BigInt(entry.awaitingMinor) + sum).toString();
    } else {
      entry.inFlightCount += group._count._all;
      entry.inFlightMinor = (BigInt(entry.inFlightMinor) + sum).toString();
    }
    byCurrency.set(group.currency, entry);
  }
  return {
    currencies: [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    oldestAwaiting: oldest
      ? { id: oldest.id, requestedAt: oldest.requestedAt.toISOString(), expiresAt: oldest.expiresAt.toISOString() }
      : null,
  };
}
