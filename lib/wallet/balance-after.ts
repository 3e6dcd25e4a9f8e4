import { minorToDecimal } from "@/lib/money";
import type { BalancesRead } from "./read-balances";

/** One currency's available balance now and after an amount leaves it (decimal strings; null: the wallet holds none), and whether it falls short. */
export type BalanceAfter = { currency: string; available: string | null; after: string | null; short: boolean };
/** What a decision card shows of the wallet: the figures and when they were read, or that they could not be read. */
export type BalancesAfter = { kind: "read"; readAt: string; updating: boolean; items: BalanceAfter[] } | { kind: "unavailable" };

/** The available balance of `currency` in `read`, and what is left once `amountMinor` is taken from it (never floats). */
export function balanceAfter(read: Pick<BalancesRead, "items">, currency: string, amountMinor: bigint): BalanceAfter {
  const item = read.items.find((i) => i.currency === currency);
  if (!item) return { currency, available: null, after: null, short: amountMinor > 0n };
  const available = BigInt(item.availableMinor);
  return {
    currency,
    available: minorToDecimal(available, currency),
    after: minorToDecimal(available - amountMinor, currency),
    // The wallet does not cover it now: the Issuing Service would refuse it.
    short: available < amountMinor,
  };
}
