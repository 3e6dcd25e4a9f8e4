import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { getQueue } from "@/lib/jobs/queue";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { startWorker } from "@/lib/jobs/worker";
import { eventually } from "../support/sandbox";

/**
 * A periodic job as the worker beats it (lib/jobs/periodic-job.ts), on the test database's queue:
 * a pass every second by the worker's timer, where a pass takes longer than that.
 */
test("a pass slower than its interval never runs twice at once, and the next follows at once without a stall", async () => {
  const queue = periodicQueue(`test.periodic-${randomUUID().slice(0, 8)}`, 60);
  // A queue left by an older release, with another policy and a per-minute keeper on it.
  const { boss } = await getQueue("worker");
  await boss.createQueue(queue.name, { policy: "stately" });
  await boss.schedule(queue.name, "* * * * *", { keeper: true });

  let running = 0;
  let mostAtOnce = 0;
  const passes: { startedAt: number; endedAt: number }[] = [];
  const slow = periodicJob({
    queue,
    everySeconds: () => 1,
    run: async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const startedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      running -= 1;
      passes.push({ startedAt, endedAt: Date.now() });
    },
  });
  const worker = await startWorker([slow]);
  try {
    expect((await boss.getQueue(queue.name))?.policy).toBe("exclusive");
    expect(await boss.getSchedules(queue.name)).toEqual([]);
    await eventually(async () => (passes.length >= 3 ? true : undefined), 20_000);
  } finally {
    await worker.stop();
  }
  expect(mostAtOnce).toBe(1);
  // Each pass starts within a beat and a poll (1 s each) of the previous one's end, not minutes later.
  for (let i = 1; i < passes.length; i++) expect(passes[i]!.startedAt - passes[i - 1]!.endedAt).toBeLessThan(3_000);
}, 60_000);
