import type { BalanceAnchor, BalancePoint } from "./balance-history";

/**
 * The wallet chart from movements summed in the database rather than read one by one
 * (100,000 orders would otherwise be read row by row): exactly what
 * `downsample(buildBalanceHistory(…), max)` draws, whenever that thins the line.
 *
 * Thinning keeps the last point of each of `max - 2` equal time buckets, and a point is a
 * movement that changed the balance or a read that set it. So the database sums the
 * movements between cuts (`sliceCuts`: the start of the period, every bucket's start and
 * the instant after every read) and keeps, per slice, the time of its last non-zero
 * movement; the line is then walked slice by slice and read by read exactly as
 * buildBalanceHistory walks it movement by movement.
 */

/** Movements between two consecutive cuts: `slice` is how many cuts are at or before them. */
export type MovementSlice = {
  slice: number;
  sumMinor: bigint;
  /** Movements in the slice; those that moved the balance (non-zero); the time of the last of these. */
  count: number;
  changes: number;
  lastChangeAt: number | null;
};

/** Which of `max - 2` buckets a point at `at` falls in: the rule of `downsample`, verbatim. */
export function bucketOf(at: number, from: number, now: number, max: number): number {
  const span = Math.max(1, now - from);
  return Math.min(max - 3, Math.floor(((at - from) / span) * (max - 2)));
}

/**
 * The instants (ms, ascending, distinct) at which a slice starts: just after `from`, the
 * first millisecond of every bucket, and just after every read (a movement at the instant
 * of a read comes before it).
 */
export function sliceCuts(input: { from: number; now: number; max: number; reads: readonly BalanceAnchor[] }): number[] {
  const { from, now, max } = input;
  const cuts = new Set<number>([from + 1, ...input.reads.map((r) => r.at.getTime() + 1)]);
  const unclamped = (at: number) => Math.floor(((at - from) / Math.max(1, now - from)) * (max - 2));
  for (let k = 1; k <= max - 3; k++) {
    // The first millisecond in bucket k: near k/(max-2) of the span, settled by the rule itself.
    let at = from + Math.ceil((k * (now - from)) / (max - 2));
    while (unclamped(at - 1) >= k) at -= 1;
    while (unclamped(at) < k) at += 1;
    if (at <= now) cuts.add(at);
  }
  return [...cuts].sort((a, b) => a - b);
}

/** How many cuts are at or before `at` (PostgreSQL's `width_bucket` over the same array). */
export function sliceOf(at: number, cuts: readonly number[]): number {
  let low = 0;
  let high = cuts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cuts[mid]! <= at) low = mid + 1;
    else high = mid;
  }
  return low;
}

type Entry = { read: bigint; at: number } | { slice: MovementSlice };

/**
 * The thinned line, or null when the line has at most `max` points (nothing is thinned:
 * every point is drawn, so the movements must be read one by one). Slices must not hold
 * movements after `now`.
 */
export function thinnedHistoryFromSlices(input: {
  reads: readonly BalanceAnchor[];
  slices: readonly MovementSlice[];
  cuts: readonly number[];
  from: Date;
  now: Date;
  max: number;
}): BalancePoint[] | null {
  const from = input.from.getTime();
  const now = input.now.getTime();
  const reads = input.reads.filter((r) => r.at.getTime() <= now);
  if (reads.length === 0) return [];
  // Slices and reads in time order; a read sits after the slice that holds its instant.
  const readsAfterSlice = new Map<number, BalanceAnchor[]>();
  for (const read of reads) {
    const slice = sliceOf(read.at.getTime(), input.cuts);
    const listed = readsAfterSlice.get(slice);
    if (listed) listed.push(read);
    else readsAfterSlice.set(slice, [read]);
  }
  const bySlice = new Map(input.slices.map((s) => [s.slice, s]));
  const entries: Entry[] = [];
  for (let s = 0; s <= input.cuts.length; s++) {
    const slice = bySlice.get(s);
    if (slice) entries.push({ slice });
    for (const read of readsAfterSlice.get(s) ?? []) entries.push({ read: read.availableMinor, at: read.at.getTime() });
  }
  const startOf = (s: number) => (s === 0 ? -Infinity : input.cuts[s - 1]!);
  const isAfterFrom = (e: Entry) => ("read" in e ? e.at > from : startOf(e.slice.slice) > from);

  // The value after each entry: forward from the first read, backward before it.
  const firstRead = entries.findIndex((e) => "read" in e);
  const after: bigint[] = new Array(entries.length);
  let value = (entries[firstRead] as { read: bigint }).read;
  for (let i = firstRead; i < entries.length; i++) {
    const e = entries[i]!;
    value = "read" in e ? e.read : value + e.slice.sumMinor;
    after[i] = value;
  }
  value = (entries[firstRead] as { read: bigint }).read;
  for (let i = firstRead - 1; i >= 0; i--) {
    after[i] = value;
    value -= (entries[i] as { slice: MovementSlice }).slice.sumMinor;
  }

  let start = value;
  let i = 0;
  for (; i < entries.length && !isAfterFrom(entries[i]!); i++) start = after[i]!;
  // Each slice's points fall in one bucket: only its last change can be kept.
  // Times as numbers until the end: a Date per entry cost more than the walk (Next wraps Date).
  const buckets = new Map<number, { at: number; availableMinor: bigint }>();
  let points = 2;
  let previous = start;
  for (; i < entries.length; i++) {
    const e = entries[i]!;
    const changes = "read" in e ? (after[i] === previous ? 0 : 1) : e.slice.changes;
    const at = "read" in e ? e.at : e.slice.lastChangeAt;
    previous = after[i]!;
    if (changes === 0 || at === null) continue;
    points += changes;
    buckets.set(bucketOf(at, from, now, input.max), { at, availableMinor: after[i]! });
  }
  if (points <= input.max) return null;
  return [
    { at: input.from, availableMinor: start },
    ...[...buckets.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, p]) => ({ at: new Date(p.at), availableMinor: p.availableMinor })),
    { at: input.now, availableMinor: previous },
  ];
}

/** Movements after `from` (and at or before the slices' `now`): the chart's "movements" figure. */
export function movementsAfter(slices: readonly MovementSlice[], cuts: readonly number[], from: Date): number {
  return slices.filter((s) => s.slice > 0 && cuts[s.slice - 1]! > from.getTime()).reduce((n, s) => n + s.count, 0);
}
