import { describe, expect, test } from "vitest";
import { MOVE_SETTLE_MS, REREAD_FLOOR_MS, mayMissMovement, shouldReread } from "@/lib/wallet/balance-freshness";
import { balanceAfter } from "@/lib/wallet/balance-after";
import { linesFromOrderRequest, readSpendLines, unitMinorOf, type StoredSpendLine } from "@/lib/spend/spend-lines";

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27, 7, 47, 0) + ms);

describe("a shared balance read after the wallet moved (lib/wallet/balance-freshness.ts)", () => {
  test("a read older than the newest movement, or taken within the settle time after it, may miss it", () => {
    expect(mayMissMovement(at(0), null)).toBe(false);
    expect(mayMissMovement(at(0), at(1_000))).toBe(true);
    expect(mayMissMovement(at(MOVE_SETTLE_MS - 1), at(0))).toBe(true);
    expect(mayMissMovement(at(MOVE_SETTLE_MS), at(0))).toBe(false);
  });

  test("such a read is taken again unless it is younger than the floor (then the page says updating)", () => {
    const moved = at(10_000);
    expect(shouldReread(at(0), moved, at(10_500))).toBe(true);
    expect(shouldReread(at(9_000), moved, at(9_000 + REREAD_FLOOR_MS - 1))).toBe(false);
    expect(shouldReread(at(9_000), moved, at(9_000 + REREAD_FLOOR_MS))).toBe(true);
    // A read well after the movement is trusted, however old.
    expect(shouldReread(at(20_000), moved, at(80_000))).toBe(false);
  });
});

describe("the wallet after a decision (lib/wallet/balance-after.ts)", () => {
  const read = {
    items: [
      { currency: "USD", availableMinor: "1021767" },
      { currency: "JPY", availableMinor: "500" },
    ],
  };

  test("available now less the amount, exactly, and whether it falls short", () => {
    expect(balanceAfter(read as never, "USD", 29_100n)).toEqual({
      currency: "USD",
      available: "10217.67",
      after: "9926.67",
      short: false,
    });
    expect(balanceAfter(read as never, "JPY", 700n)).toEqual({ currency: "JPY", available: "500", after: "-200", short: true });
    expect(balanceAfter(read as never, "EUR", 100n)).toEqual({ currency: "EUR", available: null, after: null, short: true });
  });
});

describe("the lines of a spend request (lib/spend/spend-lines.ts)", () => {
  const line: StoredSpendLine = {
    productId: "prd_blue_harbor",
    productName: "Blue Harbor Coffee",
    variantId: "v100",
    variantLabel: "$100",
    faceValue: null,
    faceCurrency: null,
    quantity: 3,
    unitMinor: "9700",
    totalMinor: "29100",
    currency: "USD",
    pricedBy: "quote",
    pricedAt: "2026-11-27T07:44:12.000Z",
  };

  test("stored lines read back as the card shows them: option, unit and total as decimals", () => {
    expect(readSpendLines([line])).toEqual([
      {
        productId: "prd_blue_harbor",
        productName: "Blue Harbor Coffee",
        option: "$100",
        quantity: 3,
        unit: "97.00",
        total: "291.00",
        currency: "USD",
        pricedBy: "quote",
        pricedAt: "2026-11-27T07:44:12.000Z",
      },
    ]);
    const byValue = { ...line, variantId: null, variantLabel: null, faceValue: 5000, faceCurrency: "COP", unitMinor: null };
    expect(readSpendLines([byValue])![0]).toMatchObject({ option: "COP 5,000", unit: null });
  });

  test("nothing stored (a bulk file, an older request) or a shape that does not fit reads as none", () => {
    expect(readSpendLines(null)).toBeNull();
    expect(readSpendLines([])).toBeNull();
    expect(readSpendLines([{ ...line, totalMinor: 12 }])).toBeNull();
  });

  test("an older request's line comes from its stored order and total", () => {
    const lines = linesFromOrderRequest(
      { item: { productId: "p1", variantId: "v1", quantity: 2, currency: "USD" }, clientReference: "r" },
      { currency: "USD", amountMinor: 4_851n },
      new Date("2026-11-27T07:00:00Z"),
    );
    expect(lines).toEqual([
      expect.objectContaining({ productId: "p1", productName: null, option: "v1", quantity: 2, unit: null, total: "48.51" }),
    ]);
    expect(linesFromOrderRequest({ clientReference: "r" }, { currency: "USD", amountMinor: 1n }, new Date())).toEqual([]);
  });

  test("the unit price divides the total exactly, or is the list price, or unknown", () => {
    expect(unitMinorOf(29_100n, 3, null)).toBe(9_700n);
    expect(unitMinorOf(10_000n, 3, 3_300n)).toBe(3_300n);
    expect(unitMinorOf(10_000n, 3, null)).toBeNull();
  });
});
