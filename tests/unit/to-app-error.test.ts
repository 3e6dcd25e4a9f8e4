import { describe, expect, test } from "vitest";
import { ServiceError } from "@/lib/upstream/client";
import { toAppError } from "@/lib/upstream/to-app-error";

// What a page needs of a refusal for want of budget to count down to a retry (RetryLater).
describe("a call refused for want of budget, as the person who asked sees it", () => {
  test("the person's own share: 429 rate_limited, spent by the person, with the wait and when it ends", () => {
    const before = Date.now();
    const error = toAppError(
      new ServiceError({ status: 0, code: "share_exceeded", message: "share", extra: { retryAfterMs: 41_200 } }),
    );
    expect(error).toMatchObject({ code: "rate_limited", status: 429, extra: { retryAfterSeconds: 42, spent: "person" } });
    const retryAt = Date.parse(String((error as { extra: { retryAt: string } }).extra.retryAt));
    expect(retryAt - before).toBeGreaterThanOrEqual(42_000);
    expect(retryAt - Date.now()).toBeLessThanOrEqual(42_000);
  });

  test("the workspace's minute, or the upstream's own 429: spent by the workspace", () => {
    for (const cause of [
      new ServiceError({ status: 0, code: "budget_exhausted", message: "budget", extra: { retryAfterMs: 5_000 } }),
      new ServiceError({ status: 429, code: "rate_limited", message: "upstream", extra: { retryAfterMs: 800 } }),
    ])
      expect(toAppError(cause)).toMatchObject({ code: "rate_limited", extra: { spent: "workspace" } });
  });
});
