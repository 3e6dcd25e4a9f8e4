import { describe, expect, test } from "vitest";
import { utcDayStart, utcMonthStart } from "@/lib/spend/spend-window";

describe("the periods a spend limit counts over are UTC calendar days and months", () => {
  test("a moment late in the evening west of UTC already belongs to the next UTC day", () => {
    const at = new Date("2026-11-23T01:30:00-05:00"); // 06:30 UTC on the 23rd
    expect(utcDayStart(at).toISOString()).toBe("2026-11-23T00:00:00.000Z");
  });

  test("the last millisecond of a month and the first of the next fall in different months and days", () => {
    const last = new Date("2026-11-30T23:59:59.999Z");
    const first = new Date("2026-12-01T00:00:00.000Z");
    expect(utcMonthStart(last).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(utcMonthStart(first).toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(utcDayStart(last).toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(utcDayStart(first)).toEqual(first);
  });

  test("a leap day is its own day, and its month starts on the 1st", () => {
    const leap = new Date("2028-02-29T12:00:00Z");
    expect(utcDayStart(leap).toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(utcMonthStart(leap).toISOString()).toBe("2028-02-01T00:00:00.000Z");
  });
});
