import { describe, expect, test } from "vitest";
import { deactivationConsequences } from "@/lib/staff/staff-view";

describe("the confirmation before deactivating someone", () => {
  test("says how many waiting spend requests will be cancelled, and says nothing of them when there are none", () => {
    expect(deactivationConsequences({ waitingSpendRequests: 0 })).toBe(
      "Their sessions end at once and they can no longer sign in. You can reactivate them later.",
    );
    expect(deactivationConsequences({ waitingSpendRequests: 1 })).toContain(
      " 1 waiting spend request will be cancelled and never placed.",
    );
    expect(deactivationConsequences({ waitingSpendRequests: 4 })).toContain(
      " 4 waiting spend requests will be cancelled and never placed.",
    );
  });
});
