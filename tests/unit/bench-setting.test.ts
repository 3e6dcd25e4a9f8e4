import { describe, expect, test } from "vitest";
import { benchNumber } from "@/bench/lib/setting";

describe("a bench's numeric setting", () => {
  test("is the default when unset or empty, and the number when given", () => {
    expect(benchNumber("BENCH_VIEWS", 40, { min: 1 }, {})).toBe(40);
    expect(benchNumber("BENCH_VIEWS", 40, { min: 1 }, { BENCH_VIEWS: "  " })).toBe(40);
    expect(benchNumber("BENCH_VIEWS", 40, { min: 1 }, { BENCH_VIEWS: "120" })).toBe(120);
    expect(benchNumber("BENCH_WARM_UP", 300, {}, { BENCH_WARM_UP: "0" })).toBe(0);
    expect(benchNumber("BENCH_DUPLICATES", 0.2, { max: 1, whole: false }, { BENCH_DUPLICATES: "0.5" })).toBe(0.5);
  });

  test("stops the bench, naming the setting, on a value that is not a number in its range", () => {
    // Each of these was silently NaN or a number no loop could use (NaN views ran none).
    expect(() => benchNumber("BENCH_VIEWS", 40, { min: 1 }, { BENCH_VIEWS: "abc" })).toThrow(
      'BENCH_VIEWS must be a whole number of at least 1, not "abc" (unset: 40)',
    );
    expect(() => benchNumber("BENCH_TURN", 10, { min: 1 }, { BENCH_TURN: "0" })).toThrow(/BENCH_TURN/);
    expect(() => benchNumber("BENCH_WARM_UP", 300, {}, { BENCH_WARM_UP: "-5" })).toThrow(/BENCH_WARM_UP/);
    expect(() => benchNumber("BENCH_VIEWS", 40, { min: 1 }, { BENCH_VIEWS: "12.5" })).toThrow(/whole number/);
    expect(() => benchNumber("BENCH_DUPLICATES", 0.2, { max: 1, whole: false }, { BENCH_DUPLICATES: "2" })).toThrow(
      'BENCH_DUPLICATES must be a number from 0 to 1, not "2" (unset: 0.2)',
    );
  });
});
