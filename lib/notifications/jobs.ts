import "server-only";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { getEnv } from "@/lib/env";
import { collectDigests } from "./collect-digests";
import { deliverDue } from "./deliver-due";
import { pruneNotifications } from "./prune";

export const NOTIFICATION_QUEUES = {
  // A short expiry: a worker killed mid-pass leaves its beat active on this exclusive queue, and
  // no new pass starts until pg-boss expires it (then within its 60 s supervision). Passes may
  // overlap safely: each delivery is claimed with a lease, each digest row under FOR UPDATE.
  deliver: periodicQueue("notifications.deliver", 30),
  prune: periodicQueue("notifications.prune", 600),
} as const;

/** Stop a pass after this long and let the next link go on, well inside the queue's expiry. */
const PASS_MS = 20_000;
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
  periodicJob({ queue: NOTIFICATION_QUEUES.prune, everySeconds: () => 3600, run: () => pruneNotifications() }),
];
