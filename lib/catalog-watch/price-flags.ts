import "server-only";
import { db } from "@/lib/db/client";
import { readSettings } from "@/lib/settings/get-settings";
import { measureMove, type PriceMap } from "./price-move";
import type { PriceFlag } from "./price-flag-words";

/** A line or row as it was priced: its product, variant and unit price then. */
export type PricedItem = { productId: string; variantId: string | null; unitMinor: bigint | null };

/**
 * For each group of items (a spend request's lines, a bulk file's unplaced rows), how many moved
 * past the watch's threshold since they were priced, or became unavailable, by the prices the
 * app last saw (no upstream call). Groups with nothing to flag are left out.
 */
export async function priceFlags(groups: Map<string, PricedItem[]>): Promise<Map<string, PriceFlag>> {
  const ids = [...new Set([...groups.values()].flat().map((item) => item.productId))];
  if (ids.length === 0) return new Map();
  const [states, settings] = await Promise.all([
    db().catalogProductState.findMany({
      where: { productId: { in: ids } },
      select: { productId: true, prices: true, isAvailable: true },
    }),
    readSettings(),
  ]);
  const known = new Map(states.map((s) => [s.productId, s]));
  const flags = new Map<string, PriceFlag>();
  for (const [key, items] of groups) {
    const flag: PriceFlag = { rose: 0, fell: 0, largestRise: 0, largestFall: 0, unavailable: 0 };
    for (const item of items) {
      const state = known.get(item.productId);
      if (!state) continue;
      if (!state.isAvailable) flag.unavailable += 1;
      const now = item.variantId ? (state.prices as PriceMap)[item.variantId] : undefined;
      if (!item.variantId || now === undefined || item.unitMinor === null) continue;
      const move = measureMove({ [item.variantId]: item.unitMinor.toString() }, { [item.variantId]: now });
      if (!move || Math.abs(move.percent) <= settings.catalogWatchThresholdPercent) continue;
      if (move.percent > 0) {
        flag.rose += 1;
        flag.largestRise = Math.max(flag.largestRise, move.percent);
      } else {
        flag.fell += 1;
        flag.largestFall = Math.min(flag.largestFall, move.percent);
      }
    }
    if (flag.rose || flag.fell || flag.unavailable) flags.set(key, flag);
  }
  return flags;
}
