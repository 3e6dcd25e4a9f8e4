/**
 * How far the prices of an open spend request's lines or a bulk file's unplaced rows moved since
 * they were priced, as the catalog watch last saw them (./price-flags.ts). Pure, unit-tested.
 */
export type PriceFlag = {
  /** How many rows or lines moved past the threshold, up or down. */
  rose: number;
  fell: number;
  /** The largest move of those that rose, and of those that fell, in percent (signed). */
  largestRise: number;
  largestFall: number;
  /** How many are of a product now unavailable. */
  unavailable: number;
};

const PERCENT = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });

/** "The price of 3 rows rose 6 % since you uploaded." — null when nothing moved. */
export function describePriceFlag(flag: PriceFlag, noun: "row" | "line", since: string): string | null {
  const count = (n: number) => (n === 1 ? `1 ${noun}` : `${n} ${noun}s`);
  const up = flag.rose > 1 ? " up to" : "";
  const down = flag.fell > 1 ? " up to" : "";
  const parts = [
    flag.rose ? `the price of ${count(flag.rose)} rose${up} ${PERCENT.format(flag.largestRise)} % since ${since}` : null,
    flag.fell ? `the price of ${count(flag.fell)} fell${down} ${PERCENT.format(-flag.largestFall)} % since ${since}` : null,
    flag.unavailable ? `${count(flag.unavailable)} ${flag.unavailable === 1 ? "is" : "are"} of a product now unavailable` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return null;
  const text = parts.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
