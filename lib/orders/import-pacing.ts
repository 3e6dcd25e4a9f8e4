/**
 * Whether the history import may read a page in this minute of the shared budget
 * (lib/orders/import-orders-page.ts). It never makes a person wait: a minute that others
 * (people, other background work) already keep busy is left to them. Busy means their calls
 * reach the background cap less the import's share, and the share is at most half the cap,
 * so that a rate configured above the cap (ORDERS_IMPORT_CALLS_PER_MINUTE goes to 600, the
 * real limit's background cap is 90) still leaves the import the quiet minutes instead of
 * none. Within a minute the budget itself stops background calls at its cap.
 */
export function importMayUseMinute(input: {
  /** Calls every process took in this minute's budget window, the import's included. */
  usedThisMinute: number;
  /** The import's own calls in this window. */
  importCallsThisMinute: number;
  backgroundCap: number;
  importCallsPerMinute: number;
}): boolean {
  const { usedThisMinute, importCallsThisMinute, backgroundCap, importCallsPerMinute } = input;
  if (importCallsThisMinute >= importCallsPerMinute) return false;
  const share = Math.min(importCallsPerMinute, Math.floor(backgroundCap / 2));
  const others = usedThisMinute - importCallsThisMinute;
  return others < backgroundCap - share;
}
