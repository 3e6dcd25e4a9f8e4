import "server-only";
import { toMinor } from "@/lib/money";
import type { Balance, Spender } from "@/lib/upstream/client";
import { upstream } from "@/lib/upstream/service";
import { checkLowBalances } from "./low-balance-alert";
import { recordBalanceReads } from "./record-balance-read";

/** One currency of the wallet, in minor units (strings: they travel as JSON). */
export type BalanceView = {
  currency: string;
  availableMinor: string;
  reservedMinor: string;
  pendingWithdrawalMinor: string;
  totalMinor: string;
  /** The upstream's time of the last movement in this currency (null: never moved). */
  updatedAt: string | null;
};
/** The balances and when this app read them from the Issuing Service. */
export type BalancesRead = { readAt: string; items: BalanceView[] };

const KEY = "wallet:balances";
/** How long a read serves warnings on every page (see lowBalanceWarning). */
export const SHARED_BALANCE_TTL_MS = 60_000;

/**
 * All balances in one upstream call. `fresh` (the wallet page, the API) always asks the
 * upstream and leaves the answer in the process's read cache; without it, an answer up to
 * a minute old is served and concurrent callers share one call, so that a warning shown
 * on every page costs at most one upstream call a minute per app instance.
 */
export async function readBalances(options: {
  fresh: boolean;
  priority: "interactive" | "background";
  deadlineMs?: number;
  /** Who the read is for; the read serves every caller for a minute, so it is charged to the one who missed. */
  by: Spender;
}): Promise<BalancesRead> {
  const cache = upstream().cache;
  if (options.fresh) cache.invalidate(KEY);
  return cache.get(KEY, SHARED_BALANCE_TTL_MS, async () => {
    const { data } = await upstream().getBalances({ priority: options.priority, deadlineMs: options.deadlineMs, by: options.by });
    const readAt = new Date();
    const items = data.items.map(toView);
    // Every read is an anchor of the wallet chart (this app's clock, not the upstream's).
    await recordBalanceReads(readAt, items);
    // And each tells whether the wallet crossed its low-balance threshold (finance hears once).
    await checkLowBalances(readAt, items);
    return { readAt: readAt.toISOString(), items };
  });
}

/** The wallet moved (an order placed here): the next read of this process asks the upstream. */
export function forgetBalances(): void {
  upstream().cache.invalidate(KEY);
}

function toView(b: Balance): BalanceView {
  const available = toMinor(b.availableBalance, b.currency);
  const reserved = toMinor(b.reservedBalance, b.currency);
  const pending = toMinor(b.pendingWithdrawalBalance ?? 0, b.currency);
  const total = b.totalBalance === undefined ? available + reserved + pending : toMinor(b.totalBalance, b.currency);
  return {
    currency: b.currency,
    availableMinor: available.toString(),
    reservedMinor: reserved.toString(),
    pendingWithdrawalMinor: pending.toString(),
    totalMinor: total.toString(),
    updatedAt: b.updatedAtUtc ?? null,
  };
}
