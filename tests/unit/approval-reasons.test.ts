import { describe, expect, test } from "vitest";
import { approvalReasons, approvalWhy, storedWhyClause, type SpendRules } from "@/lib/spend/approval-reasons";

const rules = (over: Partial<SpendRules> = {}): SpendRules => ({
  currency: "USD",
  thresholdMinor: null,
  perOrderMinor: null,
  day: null,
  month: null,
  ...over,
});

describe("why a spend needs approval", () => {
  test("every rule it passes is a reason, not only the first: the threshold and the daily limit", () => {
    const reasons = approvalReasons(rules({ thresholdMinor: 1021n, day: { limitMinor: 13620n, spentMinor: 12300n } }), 1362n);
    expect(reasons.map((r) => r.rule)).toEqual(["threshold", "day"]);
    expect(approvalWhy(reasons)).toBe(
      "its total of $13.62 is above the approval threshold of $10.21, and $123.00 already spent today (UTC) plus $13.62 would pass the daily limit of $136.20",
    );
  });

  test("with nothing spent yet in the period, the reason names the total against the limit, and the total is named once", () => {
    const reasons = approvalReasons(rules({ day: { limitMinor: 408n, spentMinor: 0n } }), 544n);
    expect(approvalWhy(reasons)).toBe("its total of $5.44 is above the daily limit of $4.08");
    const both = approvalReasons(rules({ thresholdMinor: 408n, day: { limitMinor: 408n, spentMinor: 0n } }), 544n);
    expect(approvalWhy(both)).toBe(
      "its total of $5.44 is above the approval threshold of $4.08, and it is above the daily limit of $4.08",
    );
  });

  test("a total at a limit passes; one cent above it does not", () => {
    const at = rules({ thresholdMinor: 1000n, perOrderMinor: 1000n, day: { limitMinor: 1500n, spentMinor: 500n } });
    expect(approvalReasons(at, 1000n)).toEqual([]);
    expect(approvalReasons(at, 1001n).map((r) => r.rule)).toEqual(["threshold", "per_order", "day"]);
  });

  test("three or more reasons are set apart by semicolons (an amount may hold a comma), lower case, no full stop", () => {
    const all = approvalReasons(
      rules({
        thresholdMinor: 100000n,
        perOrderMinor: 100000n,
        day: { limitMinor: 150000n, spentMinor: 60000n },
        month: { limitMinor: 300000n, spentMinor: 250000n },
      }),
      120000n,
    );
    expect(approvalWhy(all)).toBe(
      "its total of $1,200.00 is above the approval threshold of $1,000.00; " +
        "it is above the limit of $1,000.00 per order; " +
        "$600.00 already spent today (UTC) plus $1,200.00 would pass the daily limit of $1,500.00; " +
        "and $2,500.00 already spent this month (UTC) plus $1,200.00 would pass the monthly limit of $3,000.00",
    );
  });

  test("a request stored before the clauses were lower case reads the same after 'Needs approval because'", () => {
    expect(storedWhyClause("The total $13.62 is above the approval threshold of $10.21.")).toBe(
      "the total $13.62 is above the approval threshold of $10.21",
    );
    expect(storedWhyClause("With $5.00 already spent today (UTC), this would pass the daily limit of $10.00.")).toBe(
      "with $5.00 already spent today (UTC), this would pass the daily limit of $10.00",
    );
  });
});
