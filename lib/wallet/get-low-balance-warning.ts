import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy } from "@/lib/upstream/service";
import { logger } from "@/lib/log";
import { getSettings } from "@/lib/settings/get-settings";
import { findLowBalances, type LowBalance } from "./low-balance";
import { readCurrentBalances } from "./current-balances";

export type LowBalanceWarning = { readAt: string; low: LowBalance[] };

/**
 * For the warning on every page of staff who can order. Served from the shared, coalesced
 * balance read (at most one upstream call a minute per process, background priority, a
 * short deadline), read again once the wallet moved since it, whichever process or instance
 * moved it (./current-balances.ts): the first page after an order shows the balance it left,
 * and that read is the one that tells finance the wallet crossed its low-balance threshold.
 * A page never waits long on, or spends much budget for, a warning. If the balance cannot be
 * read the warning is left out rather than failing the page.
 */
export async function getLowBalanceWarning(actor: Actor): Promise<LowBalanceWarning | null> {
  assertCan(actor, "orders.create");
  try {
    const [balances, settings] = await Promise.all([
      readCurrentBalances({ priority: "background", deadlineMs: 5_000, by: spentBy(actor) }),
      getSettings(),
    ]);
    const low = findLowBalances(balances.items, settings.lowBalance);
    return low.length ? { readAt: balances.readAt, low } : null;
  } catch (error) {
    logger.warn("low-balance check skipped: the balance could not be read", {
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
}
