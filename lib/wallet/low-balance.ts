import { currencyExponent, parseMinor } from "@/lib/money";
import type { BalanceView } from "./read-balances";

export type LowBalance = { currency: string; availableMinor: string; thresholdMinor: string };

/**
 * Currencies whose available balance is below their threshold (settings.lowBalance, e.g.
 * `{USD: "1000.00"}`). A currency the wallet does not hold at all is not warned about: a
 * default threshold for a currency this merchant never uses would be noise on every page.
 */
export function findLowBalances(items: readonly BalanceView[], thresholds: Record<string, string>): LowBalance[] {
  const low: LowBalance[] = [];
  for (const item of items) {
    const threshold = thresholds[item.currency];
    if (threshold === undefined) continue;
    const thresholdMinor = decimalToMinor(threshold, item.currency);
    if (thresholdMinor !== null && BigInt(item.availableMinor) < thresholdMinor) {
      low.push({ currency: item.currency, availableMinor: item.availableMinor, thresholdMinor: thresholdMinor.toString() });
    }
  }
  return low;
}

/** "1000.5" → 100050n for USD; exact (no floats). Extra decimals beyond the currency's are dropped. */
export function decimalToMinor(decimal: string, currency: string): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) return null;
  const kept = (match[2] ?? "").slice(0, currencyExponent(currency));
  return parseMinor(kept ? `${match[1]}.${kept}` : match[1]!, currency);
}
