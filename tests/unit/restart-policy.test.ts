import { describe, expect, it } from "vitest";
import { createRestartPolicy, RESTART_RULE } from "@/scripts/lib/restart-policy.mjs";

/** A clock the test moves; a crash is reported as "ran for `ranMs`". */
function clocked() {
  let now = 1_000_000;
  const policy = createRestartPolicy(RESTART_RULE, () => now);
  return {
    policy,
    crashAfter(ranMs: number) {
      const startedAt = now;
      now += ranMs;
      return policy.crashed(startedAt);
    },
    wait(ms: number) {
      now += ms;
    },
  };
}

describe("restart policy", () => {
  it("waits 1 s, then 2, 4 and 8 s after crashes that come fast, and gives up at the fifth", () => {
    const { crashAfter, wait } = clocked();
    const delays: (number | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const delay = crashAfter(500);
      delays.push(delay);
      if (delay !== null) wait(delay);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, null]);
  });

  it("never waits more than 30 s between restarts", () => {
    const rule = { ...RESTART_RULE, giveUpAfter: 100 };
    let now = 0;
    const policy = createRestartPolicy(rule, () => now);
    const delays = Array.from({ length: 10 }, () => {
      const delay = policy.crashed(now)!;
      now += delay;
      return delay;
    });
    expect(Math.max(...delays)).toBe(30_000);
    expect(delays.at(-1)).toBe(30_000);
  });

  it("a process that stayed up a healthy minute starts the count afresh: it is restarted after 1 s, not given up", () => {
    const { policy, crashAfter } = clocked();
    for (let i = 0; i < 4; i++) crashAfter(500);
    expect(policy.crashes).toBe(4);
    expect(crashAfter(60_000)).toBe(1_000);
    expect(policy.crashes).toBe(1);
  });

  it("crashes spread out but each before a healthy minute still add up to giving up", () => {
    const { crashAfter } = clocked();
    const delays = Array.from({ length: 5 }, () => crashAfter(59_000));
    expect(delays.at(-1)).toBeNull();
  });
});
