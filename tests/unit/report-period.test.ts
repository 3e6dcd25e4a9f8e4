import { describe, expect, test } from "vitest";
import { reportBuckets, reportFilterSchema, reportPeriod } from "@/lib/reports/report-period";

const NOW = new Date("2026-11-29T04:00:00Z");
const period = (input: Record<string, string>) => reportPeriod(reportFilterSchema.parse(input), NOW);

describe("the spend report's period", () => {
  test("this month and last month are whole UTC months, the end exclusive", () => {
    expect(period({})).toMatchObject({ from: "2026-11-01", to: "2026-11-30", end: new Date("2026-12-01T00:00:00Z") });
    expect(period({ period: "last-month" })).toMatchObject({ from: "2026-10-01", to: "2026-10-31" });
    expect(reportPeriod(reportFilterSchema.parse({ period: "last-month" }), new Date("2026-01-15T00:00:00Z")).from).toBe(
      "2025-12-01",
    );
  });

  test("a custom period runs from its first day to the end of its last", () => {
    expect(period({ period: "custom", from: "2026-11-03", to: "2026-11-03" })).toMatchObject({
      start: new Date("2026-11-03T00:00:00Z"),
      end: new Date("2026-11-04T00:00:00Z"),
    });
  });

  test("a custom period needs both days in order and at most a year", () => {
    const problems = (input: Record<string, string>) =>
      reportFilterSchema.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(problems({ period: "custom" })).toEqual([
      "from: Enter the first day of the period.",
      "to: Enter the last day of the period.",
    ]);
    expect(problems({ period: "custom", from: "2026-11-05", to: "2026-11-04" })).toEqual([
      "to: The last day is before the first.",
    ]);
    expect(problems({ period: "custom", from: "2025-01-01", to: "2026-01-02" })).toEqual(["to: Choose at most 366 days."]);
    expect(problems({ by: "brand" })?.[0]).toMatch(/^by: Use one of product, category/);
  });

  test("weeks start on Monday and are clipped to the period", () => {
    const buckets = reportBuckets(period({}), "week");
    expect(buckets.map((b) => [b.label, b.end.toISOString().slice(0, 10)])).toEqual([
      ["2026-11-01", "2026-11-02"],
      ["2026-11-02", "2026-11-09"],
      ["2026-11-09", "2026-11-16"],
      ["2026-11-16", "2026-11-23"],
      ["2026-11-23", "2026-11-30"],
      ["2026-11-30", "2026-12-01"],
    ]);
    expect(reportBuckets(period({}), "day")).toHaveLength(30);
    expect(
      reportBuckets(period({ period: "custom", from: "2026-10-15", to: "2026-11-02" }), "month").map((b) => b.label),
    ).toEqual(["2026-10", "2026-11"]);
  });
});
