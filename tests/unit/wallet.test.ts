import { describe, expect, test } from "vitest";
import { buildBalanceHistory, downsample, type BalanceEvent } from "@/lib/wallet/balance-history";
import { decimalToMinor, findLowBalances } from "@/lib/wallet/low-balance";
import { matchCredits, MATCH_WINDOW, type CreditToMatch, type DepositToMatch } from "@/lib/wallet/match-credits";
import type { BalanceView } from "@/lib/wallet/read-balances";

const t0 = Date.parse("2026-11-20T10:00:00Z");
const at = (minutes: number) => new Date(t0 + minutes * 60_000);
const credit = (id: string, amount: bigint, minutes: number, currency = "USD"): CreditToMatch => ({
  eventId: id,
  amountMinor: amount,
  currency,
  occurredAt: at(minutes),
});
const deposit = (id: string, amount: bigint, minutes: number, extra: Partial<DepositToMatch> = {}): DepositToMatch => ({
  id,
  amountMinor: amount,
  currency: "USD",
  occurredAt: at(minutes),
  creditedAt: null,
  ...extra,
});

describe("matching credits to deposits by amount and time", () => {
  test("a credit a minute after a deposit of the same amount matches it", () => {
    const m = matchCredits([credit("c1", 12535n, 1)], [deposit("d1", 12535n, 0), deposit("d2", 9999n, 1)]);
    expect(m.get("c1")).toEqual({ depositId: "d1", candidates: 1, deltaMs: 60_000 });
  });

  test("a different amount, currency or a time outside the window is unmatched", () => {
    const afterWindow = MATCH_WINDOW.afterMs / 60_000 + 1;
    const m = matchCredits(
      [
        credit("amount", 100n, 0),
        credit("currency", 200n, 0, "EUR"),
        credit("late", 300n, afterWindow),
        credit("early", 400n, -6),
      ],
      [deposit("d1", 101n, 0), deposit("d2", 200n, 0), deposit("d3", 300n, 0), deposit("d4", 400n, 0)],
    );
    for (const id of ["amount", "currency", "late", "early"])
      expect(m.get(id), id).toEqual({ depositId: null, candidates: 0, deltaMs: null });
  });

  test("a deposit's own credited time, when given, is matched within five minutes", () => {
    const d = deposit("d1", 500n, -120, { creditedAt: at(0) });
    expect(matchCredits([credit("c1", 500n, 4)], [d]).get("c1")?.depositId).toBe("d1");
    expect(matchCredits([credit("c1", 500n, 6)], [d]).get("c1")?.depositId).toBeNull();
  });

  test("two equal deposits and two credits pair closest first, each deposit used once", () => {
    const m = matchCredits(
      [credit("c1", 1000n, 1), credit("c2", 1000n, 11)],
      [deposit("d1", 1000n, 0), deposit("d2", 1000n, 10)],
    );
    expect(m.get("c1")).toMatchObject({ depositId: "d1", candidates: 1 });
    expect(m.get("c2")).toMatchObject({ depositId: "d2", candidates: 2 });
  });

  test("a second credit with only one fitting deposit stays unmatched instead of sharing it", () => {
    const m = matchCredits([credit("c1", 1000n, 1), credit("c2", 1000n, 2)], [deposit("d1", 1000n, 0)]);
    expect(m.get("c1")?.depositId).toBe("d1");
    expect(m.get("c2")).toEqual({ depositId: null, candidates: 1, deltaMs: null });
  });
});

describe("available balance over time", () => {
  const now = at(60);
  const from = at(0);

  const read = (minutes: number, availableMinor: bigint) => ({ at: at(minutes), availableMinor });
  const series = (points: { at: Date; availableMinor: bigint }[]) =>
    points.map((p) => [(p.at.getTime() - t0) / 60_000, p.availableMinor]);

  test("moves forward from a read, movement by movement, until the next read sets it again", () => {
    const events: BalanceEvent[] = [
      { at: at(10), deltaMinor: -2_500n, kind: "order" },
      { at: at(20), deltaMinor: 10_000n, kind: "credit" },
      { at: at(30), deltaMinor: 2_500n, kind: "order_release" },
    ];
    // Something this app never heard of took 1,000 before the read at 40: a step there, nothing before.
    const points = buildBalanceHistory({ reads: [read(5, 40_000n), read(40, 49_000n)], events, from, now });
    expect(series(points)).toEqual([
      [0, 40_000n],
      [10, 37_500n],
      [20, 47_500n],
      [30, 50_000n],
      [40, 49_000n],
      [60, 49_000n],
    ]);
  });

  test("before the first read the line is walked back from it", () => {
    const events: BalanceEvent[] = [{ at: at(10), deltaMinor: -2_500n, kind: "order" }];
    expect(series(buildBalanceHistory({ reads: [read(20, 7_500n)], events, from, now }))).toEqual([
      [0, 10_000n],
      [10, 7_500n],
      [60, 7_500n],
    ]);
  });

  test("the past does not move when later movements and reads arrive", () => {
    const early: BalanceEvent[] = [{ at: at(10), deltaMinor: -2_500n, kind: "order" }];
    const before = buildBalanceHistory({ reads: [read(5, 40_000n), read(20, 37_500n)], events: early, from, now: at(30) });
    const later: BalanceEvent[] = [
      ...early,
      { at: at(40), deltaMinor: -1_000n, kind: "order" },
      { at: at(45), deltaMinor: 5_000n, kind: "credit" },
    ];
    const after = buildBalanceHistory({
      reads: [read(5, 40_000n), read(20, 37_500n), read(50, 41_500n)],
      events: later,
      from,
      now,
    });
    const upTo30 = (points: { at: Date; availableMinor: bigint }[]) => series(points).filter(([m]) => (m as number) < 30);
    expect(upTo30(after)).toEqual(upTo30(before));
  });

  test("with no read there is nothing to anchor on; movements outside the period are left out", () => {
    expect(buildBalanceHistory({ reads: [], events: [{ at: at(10), deltaMinor: 1n, kind: "credit" }], from, now })).toEqual([]);
    const points = buildBalanceHistory({
      reads: [read(-10, 700n)],
      events: [
        { at: at(-5), deltaMinor: 100n, kind: "credit" },
        { at: at(61), deltaMinor: 100n, kind: "credit" },
      ],
      from,
      now,
    });
    expect(series(points)).toEqual([
      [0, 800n],
      [60, 800n],
    ]);
  });

  test("thinning keeps the first and last point and at most the asked number", () => {
    const points = Array.from({ length: 1000 }, (_, i) => ({ at: new Date(t0 + i * 1000), availableMinor: BigInt(i) }));
    const thin = downsample(points, 100);
    expect(thin.length).toBeLessThanOrEqual(100);
    expect(thin[0]).toEqual(points[0]);
    expect(thin[thin.length - 1]).toEqual(points[999]);
    expect(thin.map((p) => p.at.getTime())).toEqual([...thin.map((p) => p.at.getTime())].sort((a, b) => a - b));
  });
});

describe("low-balance thresholds", () => {
  const balance = (currency: string, availableMinor: string): BalanceView => ({
    currency,
    availableMinor,
    reservedMinor: "0",
    pendingWithdrawalMinor: "0",
    totalMinor: availableMinor,
    updatedAt: null,
  });

  test("a currency below its threshold is listed; at or above it, or without one, is not", () => {
    const low = findLowBalances([balance("USD", "99999"), balance("EUR", "100000"), balance("GBP", "1"), balance("JPY", "5")], {
      USD: "1000.00",
      EUR: "1000",
      JPY: "10",
    });
    expect(low).toEqual([
      { currency: "USD", availableMinor: "99999", thresholdMinor: "100000" },
      { currency: "JPY", availableMinor: "5", thresholdMinor: "10" },
    ]);
  });

  test("thresholds convert to minor units exactly", () => {
    expect(decimalToMinor("1000.5", "USD")).toBe(100050n);
    expect(decimalToMinor("0.07", "USD")).toBe(7n);
    expect(decimalToMinor("999999999999.99", "USD")).toBe(99999999999999n);
    expect(decimalToMinor("12.5", "JPY")).toBe(12n);
    expect(decimalToMinor("abc", "USD")).toBeNull();
  });
});
