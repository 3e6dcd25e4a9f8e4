import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import type { DepositAddress } from "@/lib/upstream/client";
import { db } from "@/lib/db/client";
import { spentBy, upstream } from "@/lib/upstream/service";
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
 * is kept for a minute, so a wallet page view is not an upstream 404 each time. Requesting
 * the address through this app clears it in the process that asked, and every other process
 * (WEB_CONCURRENCY, other instances) drops its "none yet" as soon as the database holds the
 * request's audit row; one requested elsewhere shows within that minute.
 */
const FOUND_TTL_MS = 10 * 60_000;
const NONE_TTL_MS = 60_000;

/** The workspace's permanent BSC-USD deposit address, or null while none has been requested. */
export async function getDepositAddress(actor: Actor): Promise<DepositAddressView | null> {
  assertCan(actor, "wallet.read");
  const cached = await readDepositAddress(actor);
  if (cached !== null || !(await requestedThroughThisApp())) return cached;
  upstream().cache.invalidate(DEPOSIT_ADDRESS_CACHE_KEY);
  return readDepositAddress(actor);
}

/** A successful request's audit row (written once the upstream answered with the address). */
async function requestedThroughThisApp(): Promise<boolean> {
  const row = await db().auditEvent.findFirst({ where: { action: "wallet.deposit_address_request" }, select: { id: true } });
  return row !== null;
}

function readDepositAddress(actor: Actor): Promise<DepositAddressView | null> {
  return upstream().cache.get<DepositAddressView | null>(
    DEPOSIT_ADDRESS_CACHE_KEY,
    (address) => (address ? FOUND_TTL_MS : NONE_TTL_MS),
    async () => {
      try {
        return toAddressView((await upstream().getDepositAddress({ priority: "interactive", by: spentBy(actor) })).data);
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
