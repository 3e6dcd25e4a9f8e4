/**
 * One order's events run one after another, different orders side by side: two re-reads of
 * the same order racing each other could let the older answer be written last. Groups
 * items by their order id, in arrival order; an item without one is a group of its own.
 */
export function groupByOrder<T>(items: readonly T[], orderIdOf: (item: T) => unknown): T[][] {
  const groups = new Map<string, T[]>();
  items.forEach((item, index) => {
    const orderId = orderIdOf(item);
    const key = typeof orderId === "string" && orderId ? `order:${orderId}` : `item:${index}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  });
  return [...groups.values()];
}
