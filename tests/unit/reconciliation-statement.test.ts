import { describe, expect, test } from "vitest";
import { buildStatement, dayBounds, dayEndClosing, utcDay, type DayMovements } from "@/lib/reconciliation/day-statement";

const none: DayMovements = {
  capturedMinor: 0n,
  capturedCount: 0,
  refundedMinor: 0n,
  refundedCount: 0,
  creditedMinor: 0n,
  creditedCount: 0,
  withdrawnMinor: 0n,
  withdrawnCount: 0,
};
const day: DayMovements = {
  ...none,
  capturedMinor: 5_000n,
  capturedCount: 2,
  refundedMinor: 1_000n,
  refundedCount: 1,
  creditedMinor: 20_000n,
  creditedCount: 1,
  withdrawnMinor: 2_500n,
  withdrawnCount: 1,
};

describe("a day's wallet statement", () => {
  test("opening − captured + refunded + credited − withdrawn is the expected closing; equal to the upstream's is reconciled", () => {
    const s = buildStatement({ openingMinor: 100_000n, closingMinor: 113_500n, movements: day });
    expect(s).toMatchObject({ status: "reconciled", expectedClosingMinor: 113_500n, differenceMinor: 0n });
  });

  test("the difference is the upstream's closing minus the expected one, to the cent", () => {
    expect(buildStatement({ openingMinor: 100_000n, closingMinor: 113_499n, movements: day })).toMatchObject({
      status: "difference",
      differenceMinor: -1n,
    });
  });

  test("without an earlier day to open from, a day is a baseline with no difference", () => {
    expect(buildStatement({ openingMinor: null, closingMinor: 5n, movements: none })).toMatchObject({
      status: "baseline",
      differenceMinor: null,
      expectedClosingMinor: null,
    });
  });

  test("a read after the day's end is rolled back by the movements known since", () => {
    // Read 10,000 after an order captured 300 and a payout of 2,500 since midnight: 12,800 at midnight.
    expect(dayEndClosing(10_000n, { ...none, capturedMinor: 300n, withdrawnMinor: 2_500n })).toBe(12_800n);
  });

  test("days are UTC calendar days", () => {
    expect(dayBounds("2026-03-29")).toEqual({ start: new Date("2026-03-29T00:00:00Z"), end: new Date("2026-03-30T00:00:00Z") });
    expect(utcDay(new Date("2026-03-01T00:05:00Z"), 1)).toBe("2026-02-28");
  });
});
