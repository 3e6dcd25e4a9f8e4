import "server-only";
import { db } from "@/lib/db/client";
import type { BalanceEvent, BalanceEventKind } from "./balance-history";

/**
 * The movements of one currency after `since` (this app's clock), one by one: the rows of
 * WalletMovement that movementSlices sums (lib/wallet/movement-slices.ts), for a chart with
 * few enough of them to draw every point.
 */
export async function movementEvents(query: { currency: string; since: Date }): Promise<BalanceEvent[]> {
  const rows = await db().walletMovement.findMany({
    where: { currency: query.currency, at: { gt: query.since } },
    select: { at: true, deltaMinor: true, kind: true },
  });
  // The kinds are the migration's own words (prisma/migrations/20261127120000_wallet_movements).
  return rows.map((m) => ({ at: m.at, deltaMinor: m.deltaMinor, kind: m.kind as BalanceEventKind }));
}
