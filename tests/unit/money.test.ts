import { describe, expect, test } from "vitest";
import { formatMoney, minorToDecimal, parseMinor } from "@/lib/money";

describe("decimal amounts as exact minor units", () => {
  test("parses what people type and what the app wrote, exactly", () => {
    expect(parseMinor("250.50", "USD")).toBe(25050n);
    expect(parseMinor("250.5", "USD")).toBe(25050n);
    expect(parseMinor("250", "USD")).toBe(25000n);
    expect(parseMinor("0.07", "USD")).toBe(7n);
    expect(parseMinor("-3.10", "EUR")).toBe(-310n);
    expect(parseMinor("1200", "JPY")).toBe(1200n);
    expect(parseMinor("90071992547409.93", "USD")).toBe(9_007_199_254_740_993n); // beyond a float's exact range
  });

  test("refuses malformed amounts and more decimals than the currency has", () => {
    for (const bad of ["", "1e3", "12.", ".5", "1,000", " 12", "abc"]) expect(() => parseMinor(bad, "USD")).toThrow(RangeError);
    expect(() => parseMinor("12.345", "USD")).toThrow(RangeError);
    expect(() => parseMinor("12.5", "JPY")).toThrow(RangeError);
  });

  test("minor units back to the decimal string, and round trips", () => {
    expect(minorToDecimal(25050n, "USD")).toBe("250.50");
    expect(minorToDecimal(7n, "USD")).toBe("0.07");
    expect(minorToDecimal(1200n, "JPY")).toBe("1200");
    for (const text of ["0.00", "12.34", "90071992547409.93"]) expect(minorToDecimal(parseMinor(text, "USD"), "USD")).toBe(text);
    expect(formatMoney(parseMinor("1234.5", "USD"), "USD")).toBe("$1,234.50");
  });
});
