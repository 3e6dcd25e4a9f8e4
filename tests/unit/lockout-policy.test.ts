import { describe, expect, test } from "vitest";
import { lockDuration, THROTTLE_POLICY } from "@/lib/auth/throttle";

describe("sign-in lock-out policy", () => {
  const free = THROTTLE_POLICY.account.freeFailures;

  test("the first few failures cost nothing", () => {
    for (let n = 1; n < free; n++) expect(lockDuration(n, free)).toBe(0);
  });

  test("each further failure doubles the lock", () => {
    expect(lockDuration(free, free)).toBe(30_000);
    expect(lockDuration(free + 1, free)).toBe(60_000);
    expect(lockDuration(free + 2, free)).toBe(120_000);
  });

  test("the lock never exceeds fifteen minutes", () => {
    expect(lockDuration(free + 50, free)).toBe(15 * 60_000);
  });
});
