import "server-only";
import type { QueueSpec } from "./define-job";
import { getQueue } from "./queue";
import { sendJob } from "./send-job";

/** How often a waiting web process looks at the job (a database read each time). */
const LOOK_EVERY_MS = 200;

/**
 * Work that only the worker may do (it alone holds the payout key: README, "The upstream's
 * keys"), asked for by a web process that waits for the answer: one job on `queue`, then its
 * row read until the worker has completed or failed it, up to `waitMs`. Resolves with the
 * job's output, or `{ waiting: true }` when the worker has not finished in time (the job still
 * runs; the caller tells the person the outcome will show). The handler reports a refusal in
 * its output rather than by failing, so the output is the whole answer.
 */
export async function runInWorker<Output extends object>(
  queue: QueueSpec,
  data: object,
  waitMs: number,
): Promise<{ waiting: false; output: Output } | { waiting: true }> {
  const id = await sendJob(queue, data);
  if (!id) throw new Error(`the ${queue.name} queue dropped a job it must run`);
  const { boss } = await getQueue();
  const until = Date.now() + waitMs;
  for (;;) {
    const job = await boss.getJobById<object>(queue.name, id);
    if (job?.state === "completed") return { waiting: false, output: job.output as Output };
    if (job?.state === "failed" || job?.state === "cancelled")
      throw new Error(`the worker's ${queue.name} job ${job.state}: ${JSON.stringify(job.output).slice(0, 300)}`);
    if (Date.now() + LOOK_EVERY_MS > until) return { waiting: true };
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}
