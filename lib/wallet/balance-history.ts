/**
 * The available balance over time, rebuilt from the app's own records. The live balance
 * is the anchor; walking back through the movements this app knows of (orders, credits,
 * withdrawals), each one's delta is undone to get the balance before it. A credit's
 * webhook carries the balance right after it: there the walk re-anchors, so a movement
 * this app never heard of (an order placed elsewhere) shifts the line only back to the
 * next credit, not all the way.
 */
export type BalanceEventKind = "order" | "order_release" | "refund" | "credit" | "withdrawal" | "withdrawal_release";
export type BalanceEvent = { at: Date; deltaMinor: bigint; kind: BalanceEventKind; balanceAfterMinor?: bigint | null };
/** From `at` on (until the next point) the available balance was `availableMinor`. */
export type BalancePoint = { at: Date; availableMinor: bigint };

export function buildBalanceHistory(input: { currentMinor: bigint; now: Date; from: Date; events: readonly BalanceEvent[] }): BalancePoint[] {
  const { now, from } = input;
  const events = input.events
    .filter((e) => e.at.getTime() > from.getTime() && e.at.getTime() <= now.getTime())
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  let balance = input.currentMinor;
  const points: BalancePoint[] = [{ at: now, availableMinor: balance }];
  for (const event of events) {
    if (event.balanceAfterMinor !== undefined && event.balanceAfterMinor !== null) balance = event.balanceAfterMinor;
    points.push({ at: event.at, availableMinor: balance });
    balance -= event.deltaMinor;
  }
  points.push({ at: from, availableMinor: balance });
  return points.reverse();
}

/**
 * At most `max` points for drawing: the time range is cut into equal buckets and each
 * keeps its last point (the balance at the bucket's end), plus the first and last point.
 */
export function downsample(points: readonly BalancePoint[], max: number): BalancePoint[] {
  if (points.length <= max) return [...points];
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const start = first.at.getTime();
  const span = Math.max(1, last.at.getTime() - start);
  const buckets = new Map<number, BalancePoint>();
  for (const point of points.slice(1, -1)) buckets.set(Math.min(max - 3, Math.floor(((point.at.getTime() - start) / span) * (max - 2))), point);
  return [first, ...[...buckets.entries()].sort(([a], [b]) => a - b).map(([, p]) => p), last];
}
