import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import type { DepositAddress } from "@/lib/upstream/client";
import { upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";

export type DepositAddressView = {
  network: string;
  asset: string;
  currency: string;
  address: string;
  requiredConfirmations: number | null;
  createdAt: string;
};

export const DEPOSIT_ADDRESS_CACHE_KEY = "wallet:deposit-address";
/**
 * The address is permanent once it exists, so a found one is kept for a while. "None yet"
 * is kept for a minute, so a wallet page view is not an upstream 404 each time; requesting
 * the address clears it at once here, and another instance sees it within that minute.
 */
const FOUND_TTL_MS = 10 * 60_000;
const NONE_TTL_MS = 60_000;

/** The workspace's permanent BSC-USD deposit address, or null while none has been requested. */
export async function getDepositAddress(actor: Actor): Promise<DepositAddressView | null> {
  assertCan(actor, "wallet.read");
  return upstream().cache.get<DepositAddressView | null>(
    DEPOSIT_ADDRESS_CACHE_KEY,
    (address) => (address ? FOUND_TTL_MS : NONE_TTL_MS),
    async () => {
      try {
        return toAddressView((await upstream().getDepositAddress({ priority: "interactive" })).data);
      } catch (error) {
        if (upstreamFailure(error)?.status === 404) return null;
        throw error;
      }
    },
  );
}

export function toAddressView(a: DepositAddress): DepositAddressView {
  return {
    network: a.network,
    asset: a.asset,
    currency: a.currency,
    address: a.address,
    requiredConfirmations: a.requiredConfirmations ?? null,
    createdAt: a.createdAtUtc,
  };
}
