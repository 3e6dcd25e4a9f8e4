import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { getEnv } from "@/lib/env";
import { collectDigests } from "./collect-digests";
import { deliverDue } from "./deliver-due";

export const NOTIFICATION_QUEUES = { deliver: periodicQueue("notifications.deliver", 600) } as const;

/** Stop a pass after this long and let the next link go on, well inside the queue's expiry. */
const PASS_MS = 4 * 60_000;
const CLAIM = 100;

/**
 * The outbox's job, run by the worker: each pass makes the digests whose period ended, then
 * sends what is due until nothing is left (or the pass has run long), every few seconds.
 */
export async function runNotificationPass(): Promise<{ digests: number; sent: number; retrying: number; failed: number }> {
  const started = Date.now();
  const { digests } = await collectDigests();
  const total = { digests, sent: 0, retrying: 0, failed: 0 };
  for (;;) {
    const tally = await deliverDue({ limit: CLAIM });
    total.sent += tally.sent;
    total.retrying += tally.retrying;
    total.failed += tally.failed;
    if (tally.claimed < CLAIM || Date.now() - started > PASS_MS) return total;
  }
}

export const notificationJobs: JobDefinition[] = [
  periodicJob({
    queue: NOTIFICATION_QUEUES.deliver,
    everySeconds: () => getEnv().NOTIFY_DELIVERY_INTERVAL_SECONDS,
    run: runNotificationPass,
  }),
];
