import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy } from "@/lib/upstream/service";
import { logger } from "@/lib/log";
import { getSettings } from "@/lib/settings/get-settings";
import { findLowBalances, type LowBalance } from "./low-balance";
import { readBalances } from "./read-balances";

export type LowBalanceWarning = { readAt: string; low: LowBalance[] };

/**
 * For the warning on every page of staff who can order. Served from the shared, coalesced
 * balance read (at most one upstream call a minute per instance, background priority, a
 * short deadline): a page never waits on, or spends budget for, a warning. If the balance
 * cannot be read the warning is left out rather than failing the page.
 */
export async function getLowBalanceWarning(actor: Actor): Promise<LowBalanceWarning | null> {
  assertCan(actor, "orders.create");
  try {
    const [balances, settings] = await Promise.all([
      readBalances({ fresh: false, priority: "background", deadlineMs: 5_000, by: spentBy(actor) }),
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
