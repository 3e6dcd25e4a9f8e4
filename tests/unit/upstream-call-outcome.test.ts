import { describe, expect, test } from "vitest";
import { attemptOutcome, minuteOf } from "@/lib/upstream/call-counts";

describe("how an upstream attempt is counted", () => {
  test("2xx and 3xx are ok, 429 is throttled, other 4xx rejected, 5xx and transport failures failed", () => {
    expect(attemptOutcome({ status: 200 })).toBe("ok");
    expect(attemptOutcome({ status: 304 })).toBe("ok");
    expect(attemptOutcome({ status: 429, code: "rate_limited" })).toBe("throttled");
    expect(attemptOutcome({ status: 404, code: "not_found" })).toBe("rejected");
    expect(attemptOutcome({ status: 401 })).toBe("rejected");
    expect(attemptOutcome({ status: 503 })).toBe("failed");
    expect(attemptOutcome({ code: "timeout" })).toBe("failed");
    expect(attemptOutcome({ code: "network_error" })).toBe("failed");
  });

  test("an attempt counts in the wall-clock minute (UTC) it started in", () => {
    expect(minuteOf(Date.parse("2026-11-23T04:59:59.999Z")).toISOString()).toBe("2026-11-23T04:59:00.000Z");
    expect(minuteOf(Date.parse("2026-11-23T05:00:00.000Z")).toISOString()).toBe("2026-11-23T05:00:00.000Z");
  });
});
