import { describe, expect, test } from "vitest";
import { policyGaps, type FactorGap } from "@/lib/auth/second-factor/policy-rule";

// People without a second factor, as the Settings page hands them to the policy form.
const gaps: FactorGap[] = [
  { roles: ["approver"], you: false },
  { roles: ["buyer", "approver"], you: false },
  { roles: ["viewer"], you: false },
  { roles: ["admin"], you: true },
];

describe("what a second-factor policy means for the people without one", () => {
  test("counts each person once whichever of their roles it covers", () => {
    expect(policyGaps(gaps, { roles: ["approver", "buyer"] })).toEqual({ withoutFactor: 2, includesYou: false });
  });

  test("says when it covers the admin choosing it", () => {
    expect(policyGaps(gaps, { roles: ["admin"] })).toEqual({ withoutFactor: 1, includesYou: true });
  });

  test("covers nobody when no role is chosen", () => {
    expect(policyGaps(gaps, { roles: [] })).toEqual({ withoutFactor: 0, includesYou: false });
  });
});
