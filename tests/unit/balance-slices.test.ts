import { describe, expect, test } from "vitest";
import { buildBalanceHistory, downsample, type BalanceAnchor, type BalanceEvent } from "@/lib/wallet/balance-history";
import {
  bucketOf,
  movementsAfter,
  sliceCuts,
  sliceOf,
  thinnedHistoryFromSlices,
  type MovementSlice,
} from "@/lib/wallet/balance-slices";

// A small deterministic generator, so that a failure names a seed that reproduces it.
function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

/** The movements up to `now` summed between the cuts, as the database sums them (an integration test draws both ways). */
function sumPerSlice(events: readonly BalanceEvent[], cuts: readonly number[], now: number): MovementSlice[] {
  const bySlice = new Map<number, MovementSlice>();
  for (const e of events) {
    const at = e.at.getTime();
    if (at > now) continue;
    const index = sliceOf(at, cuts);
    const slice = bySlice.get(index) ?? { slice: index, sumMinor: 0n, count: 0, changes: 0, lastChangeAt: null };
    bySlice.set(index, slice);
    slice.sumMinor += e.deltaMinor;
    slice.count += 1;
    if (e.deltaMinor !== 0n) {
      slice.changes += 1;
      slice.lastChangeAt = Math.max(slice.lastChangeAt ?? at, at);
    }
  }
  return [...bySlice.values()].sort((a, b) => a.slice - b.slice);
}

/** A month of movements and reads; times on whole minutes so that ties with reads and bucket edges happen. */
function month(seed: number, movements: number) {
  const next = random(seed);
  const now = Date.UTC(2026, 10, 23, 12, 0, 0, 0) + Math.floor(next() * 1000);
  const from = now - 30 * 86_400_000;
  const time = () => {
    const at = from - 3 * 86_400_000 + Math.floor(next() * 34 * 86_400_000);
    return next() < 0.5 ? at - (at % 60_000) : at;
  };
  const events: BalanceEvent[] = Array.from({ length: movements }, () => ({
    at: new Date(time()),
    deltaMinor: next() < 0.05 ? 0n : BigInt(Math.floor(next() * 20_000) - 12_000),
    kind: "order" as const,
  }));
  const reads: BalanceAnchor[] = Array.from({ length: Math.floor(next() * 60) }, () => ({
    at: new Date(time()),
    availableMinor: BigInt(Math.floor(next() * 1_000_000)),
  })).sort((a, b) => a.at.getTime() - b.at.getTime());
  // A read at the very instant of a movement: the movement comes first.
  if (reads.length > 2) reads.splice(1, 0, { at: events[0]!.at, availableMinor: 123_456n });
  reads.sort((a, b) => a.at.getTime() - b.at.getTime());
  return { events, reads, from: new Date(from), now: new Date(now) };
}

describe("the wallet chart from movements summed per slice of time", () => {
  test("every bucket of the thinning starts at a cut, and the cut is the bucket's first millisecond", () => {
    const from = Date.UTC(2026, 9, 24, 7, 13, 5, 321);
    const now = from + 30 * 86_400_000 + 17;
    const cuts = sliceCuts({ from, now, max: 400, reads: [] });
    expect(cuts).toHaveLength(398);
    expect(cuts[0]).toBe(from + 1);
    for (const cut of cuts.slice(1)) expect(bucketOf(cut, from, now, 400)).toBe(bucketOf(cut - 1, from, now, 400) + 1);
  });

  test("draws exactly the line that reading every movement draws, whenever the line is thinned", () => {
    let thinned = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const max = 5 + (seed % 60);
      const { events, reads, from, now } = month(seed, 20 + (seed % 7) * 40);
      const expected = downsample(buildBalanceHistory({ reads, events, from, now }), max);
      const cuts = sliceCuts({ from: from.getTime(), now: now.getTime(), max, reads });
      const slices = sumPerSlice(events, cuts, now.getTime());
      const points = thinnedHistoryFromSlices({ reads, slices, cuts, from, now, max });
      if (points === null) {
        // Not thinned: the chart then reads every movement.
        expect(buildBalanceHistory({ reads, events, from, now }).length, `seed ${seed}`).toBeLessThanOrEqual(max);
        continue;
      }
      thinned += 1;
      expect(points, `seed ${seed}`).toEqual(expected);
      expect(movementsAfter(slices, cuts, from), `seed ${seed}`).toBe(events.filter((e) => e.at > from && e.at <= now).length);
    }
    expect(thinned).toBeGreaterThan(200);
  });

  test("with no read there is nothing to anchor on", () => {
    const { events, from, now } = month(7, 500);
    const cuts = sliceCuts({ from: from.getTime(), now: now.getTime(), max: 10, reads: [] });
    expect(
      thinnedHistoryFromSlices({ reads: [], slices: sumPerSlice(events, cuts, now.getTime()), cuts, from, now, max: 10 }),
    ).toEqual([]);
  });
});
