/** Variant id → price in minor units (a decimal string: JSON has no bigint). */
export type PriceMap = Record<string, string>;

/**
 * The largest move of any variant from its reference price, in percent (signed), or null when
 * no variant has both prices. The control plane's factor moves every variant alike; a supplier
 * repricing one face value is still heard. Pure, unit-tested.
 */
export function measureMove(
  reference: PriceMap,
  now: PriceMap,
): { variantId: string; from: string; to: string; percent: number } | null {
  let largest: { variantId: string; from: string; to: string; percent: number } | null = null;
  for (const [variantId, to] of Object.entries(now)) {
    const from = reference[variantId];
    if (from === undefined || from === to || BigInt(from) === 0n) continue;
    // Basis points in bigint, then percent: exact for any amount.
    const basisPoints = Number(((BigInt(to) - BigInt(from)) * 10_000n) / BigInt(from));
    const percent = basisPoints / 100;
    if (!largest || Math.abs(percent) > Math.abs(largest.percent)) largest = { variantId, from, to, percent };
  }
  return largest;
}
