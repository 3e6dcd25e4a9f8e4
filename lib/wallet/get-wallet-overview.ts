import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy } from "@/lib/upstream/service";
import { getSettings } from "@/lib/settings/get-settings";
import { readCurrentBalances } from "./current-balances";
import { decimalToMinor } from "./low-balance";
import { readBalances, type BalanceView } from "./read-balances";

export type WalletBalance = BalanceView & { thresholdMinor: string | null; low: boolean };
export type WalletOverview = {
  readAt: string;
  balances: WalletBalance[];
  /** The wallet moved after this read (at `movedAt`): the figures may not include it yet. */
  updating: boolean;
  movedAt: string | null;
};

/**
 * Every currency's balance with its low-balance threshold: read from the Issuing Service now,
 * or (`fresh: false`, the home page) the shared read of up to a minute ago, read again when the
 * wallet moved since (./current-balances.ts).
 */
export async function getWalletOverview(actor: Actor, options: { fresh?: boolean } = {}): Promise<WalletOverview> {
  assertCan(actor, "wallet.read");
  const settings = await getSettings();
  const by = spentBy(actor);
  const read =
    (options.fresh ?? true)
      ? { ...(await readBalances({ fresh: true, priority: "interactive", by })), updating: false, movedAt: null }
      : await readCurrentBalances({ by, currencies: Object.keys(settings.lowBalance) });
  return {
    readAt: read.readAt,
    updating: read.updating,
    movedAt: read.movedAt,
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
