import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy } from "@/lib/upstream/service";
import { getSettings } from "@/lib/settings/get-settings";
import { decimalToMinor } from "./low-balance";
import { readBalances, type BalanceView } from "./read-balances";

export type WalletBalance = BalanceView & { thresholdMinor: string | null; low: boolean };
export type WalletOverview = { readAt: string; balances: WalletBalance[] };

/**
 * Every currency's balance with its low-balance threshold: read from the Issuing Service now,
 * or (`fresh: false`, the home page) the shared read of up to a minute ago (./read-balances.ts).
 */
export async function getWalletOverview(actor: Actor, options: { fresh?: boolean } = {}): Promise<WalletOverview> {
  assertCan(actor, "wallet.read");
  const [read, settings] = await Promise.all([
    readBalances({ fresh: options.fresh ?? true, priority: "interactive", by: spentBy(actor) }),
    getSettings(),
  ]);
  return {
    readAt: read.readAt,
    balances: read.items.map((item) => {
      const configured = settings.lowBalance[item.currency];
      const threshold = configured === undefined ? null : decimalToMinor(configured, item.currency);
      return {
        ...item,
        thresholdMinor: threshold?.toString() ?? null,
        low: threshold !== null && BigInt(item.availableMinor) < threshold,
      };
    }),
  };
}
