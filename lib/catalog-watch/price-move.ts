/** Variant id → price in minor units (a decimal string: JSON has no bigint). */
export type PriceMap = Record<string, string>;

export type PriceMove = { variantId: string; from: string; to: string; percent: number };

/**
 * A product's price move from its reference prices, in percent (signed, two decimals), or null
 * when no variant moved. Of the variants that moved, the dearest one speaks for the product:
 * rounding to the cent makes a $5 card's move of 5 % read 5.14 %, a $100 card's 5.00 %; and a
 * supplier repricing a single face value is still heard. Pure, unit-tested.
 */
export function measureMove(reference: PriceMap, now: PriceMap): PriceMove | null {
  let chosen: PriceMove | null = null;
  for (const [variantId, to] of Object.entries(now)) {
    const from = reference[variantId];
    if (from === undefined || from === to || BigInt(from) === 0n) continue;
    if (chosen && BigInt(from) <= BigInt(chosen.from)) continue;
    // Basis points in bigint, rounded half away from zero, then percent: exact for any amount.
    const scaled = (BigInt(to) - BigInt(from)) * 20_000n;
    const half = BigInt(from);
    const basisPoints = Number((scaled + (scaled < 0n ? -half : half)) / (2n * BigInt(from)));
    chosen = { variantId, from, to, percent: basisPoints / 100 };
  }
  return chosen;
}
