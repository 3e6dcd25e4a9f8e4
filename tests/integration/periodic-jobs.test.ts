import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
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

/** An hourly pass (the webhook inbox's adoption of events without a job) runs at every worker's start. */
test("a worker started again within the hour makes its hourly pass at start", async () => {
  const queue = periodicQueue(`test.hourly-${randomUUID().slice(0, 8)}`, 60);
  let passes = 0;
  const hourly = periodicJob({ queue, everySeconds: () => 3_600, run: async () => (passes += 1) });
  for (const expected of [1, 2]) {
    const worker = await startWorker([hourly]);
    try {
      await eventually(async () => (passes >= expected ? true : undefined), 20_000);
    } finally {
      await worker.stop();
    }
  }
  expect(passes).toBe(2);
}, 60_000);

/**
 * The worker killed (SIGKILL) in the middle of a pass of a job whose passes may take ten
 * minutes (expiry 600 s): its job stays active on the exclusive queue, but no longer beats, so
 * pg-boss fails it within seconds and the next worker's pass runs, not ten minutes later.
 */
test("a pass whose worker was killed holds its queue for seconds, not until the pass's expiry", async () => {
  const name = `test.killed-${randomUUID().slice(0, 8)}`;
  const root = path.resolve(import.meta.dirname, "../..");
  const script = `import { periodicJob, periodicQueue } from ${JSON.stringify(path.join(root, "lib/jobs/periodic-job.ts"))};
    import { startWorker } from ${JSON.stringify(path.join(root, "lib/jobs/worker.ts"))};
    const run = () => { console.log("pass"); return new Promise(() => {}); };
    await startWorker([periodicJob({ queue: periodicQueue(${JSON.stringify(name)}, 600), everySeconds: () => 1, run })]);`;
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "error" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise<void>((resolve) => createInterface({ input: child.stdout! }).once("line", () => resolve()));
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
  const killedAt = Date.now();

  let passes = 0;
  const worker = await startWorker([
    periodicJob({ queue: periodicQueue(name, 600), everySeconds: () => 1, run: async () => (passes += 1) }),
  ]);
  try {
    await eventually(async () => (passes > 0 ? true : undefined), 40_000, 200);
  } finally {
    await worker.stop();
  }
  // The heartbeat (10 s) and a supervision (3 s) and a beat, well short of the 600 s expiry.
  expect(Date.now() - killedAt).toBeLessThan(20_000);
  const { boss } = await getQueue();
  const dead = (await boss.findJobs(name)).filter((job) => job.state === "failed");
  expect(dead.map((job) => job.output)).toEqual([{ value: { message: "job heartbeat timeout" } }]);
}, 90_000);
