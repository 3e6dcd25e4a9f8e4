import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cronEvery } from "@/lib/jobs/periodic-job";
import { WORKER_JOBS } from "@/lib/worker-jobs";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every TypeScript source file of the product (not tests, not node_modules). */
function productFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (/\.tsx?$/.test(entry.name)) files.push(relative);
    }
  };
  for (const dir of ["lib", "app", "scripts", "components"]) walk(dir);
  return files;
}

/** The files whose code (comments aside) contains `pattern`. */
function filesWith(pattern: RegExp): string[] {
  return productFiles().filter((file) => {
    const code = readFileSync(path.join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    return pattern.test(code);
  });
}

/**
 * The cron schedules that are not periodic passes: a daily reconciliation at a fixed hour, and
 * the keeper that restarts the order import's chain of pages. Anything else periodic goes
 * through periodicJob (lib/jobs/periodic-job.ts).
 */
const OWN_CRONS: Record<string, string> = { "reconciliation.daily": "5 0 * * *", "orders.import": "* * * * *" };

describe("one queue model", () => {
  it("a periodic job runs on pg-boss's schedule when cron can say its interval, and on the worker's timer otherwise", () => {
    expect(cronEvery(60)).toBe("* * * * *");
    expect(cronEvery(120)).toBe("*/2 * * * *");
    expect(cronEvery(600)).toBe("*/10 * * * *");
    expect(cronEvery(3_600)).toBe("0 * * * *");
    expect(cronEvery(7_200)).toBe("0 */2 * * *");
    for (const seconds of [5, 15, 30, 90, 420, 5_400]) expect(cronEvery(seconds)).toBeNull();
  });

  it("every scheduled worker job is a periodic job on an exclusive queue, or one of the named crons", () => {
    const scheduled = WORKER_JOBS.filter((definition) => definition.schedule);
    expect(scheduled.length).toBeGreaterThanOrEqual(15);
    for (const { queue, schedule } of scheduled) {
      if (schedule && "everySeconds" in schedule) {
        // Exclusive: pg-boss fetches it without consulting its statistics, so a due pass cannot stall.
        expect({ queue: queue.name, policy: queue.options.policy }).toEqual({ queue: queue.name, policy: "exclusive" });
      } else {
        expect({ queue: queue.name, cron: schedule?.cron }).toEqual({ queue: queue.name, cron: OWN_CRONS[queue.name] });
      }
    }
  });

  it("only lib/jobs schedules, beats or re-queues periodic work", () => {
    expect(filesWith(/\.schedule\(/)).toEqual(["lib/jobs/periodic-job.ts", "lib/jobs/worker.ts"]);
    // A periodic queue's only jobs are its beats.
    const periodic = filesWith(/periodicJob\(/);
    expect(filesWith(/periodicQueue\(/).filter((file) => !periodic.includes(file))).toEqual([]);
    // A job that queues itself for later is a continuation of one piece of work, never a clock.
    // (A delivery's job starts at its row's due time: quiet hours, a chat's Retry-After.)
    expect(filesWith(/startAfter/)).toEqual([
      "lib/bulk-orders/jobs.ts",
      "lib/notifications/delivery-queue.ts",
      "lib/orders/jobs.ts",
    ]);
  });

  it("no SQL in product code claims rows with SKIP LOCKED: pg-boss claims jobs, the rows are fences", () => {
    expect(filesWith(/SKIP\s+LOCKED/i)).toEqual([]);
  });
});
