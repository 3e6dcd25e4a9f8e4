/**
 * The available balance over time, from this app's own records, all on this app's clock:
 * balance reads (each an exact value at the moment it was read) and the movements this app
 * recorded (orders, credits, withdrawals). After a read the line moves forward from it,
 * movement by movement, until the next read sets it again; before the first read it is
 * walked back from that read. A day's line therefore depends only on records made by
 * that day's end: today's movements, or an upstream whose clock runs ahead, cannot move
 * the past. A movement this app never heard of shows as a step at the next read.
 */
export type BalanceEventKind = "order" | "order_release" | "refund" | "credit" | "withdrawal" | "withdrawal_release";
export type BalanceEvent = { at: Date; deltaMinor: bigint; kind: BalanceEventKind };
/** A balance this app read, at the time it read it. */
export type BalanceAnchor = { at: Date; availableMinor: bigint };
/** From `at` on (until the next point) the available balance was `availableMinor`. */
export type BalancePoint = { at: Date; availableMinor: bigint };

type Item = { at: number; read?: bigint; delta?: bigint };

export function buildBalanceHistory(input: {
  reads: readonly BalanceAnchor[];
  events: readonly BalanceEvent[];
  from: Date;
  now: Date;
}): BalancePoint[] {
  const from = input.from.getTime();
  const now = input.now.getTime();
  // At one instant a movement comes before a read: the read already reflects it.
  const items: Item[] = [
    ...input.events.map((e): Item => ({ at: e.at.getTime(), delta: e.deltaMinor })),
    ...input.reads.map((r): Item => ({ at: r.at.getTime(), read: r.availableMinor })),
  ]
    .filter((i) => i.at <= now)
    .sort((a, b) => a.at - b.at || (a.read === undefined ? -1 : 1) - (b.read === undefined ? -1 : 1));
  const firstRead = items.findIndex((i) => i.read !== undefined);
  if (firstRead < 0) return [];

  // The value after each item: forward from the first read, backward before it.
  const after: bigint[] = new Array(items.length);
  let value = items[firstRead]!.read!;
  for (let i = firstRead; i < items.length; i++) {
    const item = items[i]!;
    value = item.read ?? value + item.delta!;
    after[i] = value;
  }
  value = items[firstRead]!.read!;
  for (let i = firstRead - 1; i >= 0; i--) {
    after[i] = value;
    value -= items[i]!.delta!;
  }
  const beforeAll = value;

  let start = beforeAll;
  for (let i = 0; i < items.length && items[i]!.at <= from; i++) start = after[i]!;
  const points: BalancePoint[] = [{ at: input.from, availableMinor: start }];
  items.forEach((item, i) => {
    if (item.at <= from || after[i] === points[points.length - 1]!.availableMinor) return;
    points.push({ at: new Date(item.at), availableMinor: after[i]! });
  });
  points.push({ at: input.now, availableMinor: points[points.length - 1]!.availableMinor });
  return points;
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
  for (const point of points.slice(1, -1))
    buckets.set(Math.min(max - 3, Math.floor(((point.at.getTime() - start) / span) * (max - 2))), point);
  return [first, ...[...buckets.entries()].sort(([a], [b]) => a - b).map(([, p]) => p), last];
}
