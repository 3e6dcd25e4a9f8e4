import "server-only";
import type { QueueSpec } from "@/lib/jobs/define-job";
import { sendJob } from "@/lib/jobs/send-job";
import { logger } from "@/lib/log";

/**
 * "The inbox has pending events": a job a worker answers by processing every pending row
 * (jobs.ts, through process-pending.ts: one order's events in turn). Stately under one key:
 * at most one drain waiting and one running, however many deliveries ask, so a burst of
 * deliveries costs the queue one job instead of one per event. A waiting drain has not read
 * the inbox yet and will see every row committed before it starts, which is why a request
 * that finds one waiting may be dropped. A failed event is retried on its own
 * (`webhook.process`, with backoff). The periodic sweep (jobs.ts, every 10 s) covers a
 * request that was lost, and a drain whose worker died, which holds the key until the
 * queue expires it.
 */
export const WEBHOOK_DRAIN_QUEUE: QueueSpec = {
  name: "webhook.drain",
  options: { policy: "stately", retryLimit: 0, expireInSeconds: 900, deleteAfterSeconds: 3_600 },
  notify: true,
};

const DRAIN_KEY = "inbox";
/**
 * Requests are spaced at least this far apart per process. Each is a job INSERT, and
 * back-to-back requests under a stream of deliveries cost the database as much as the
 * deliveries themselves; a worker polls the queue every 0.5–1 s anyway.
 */
const SPACING_MS = 100;
let busy = false; // a request in flight, or the spacing after it
let again = false;

/**
 * Asks a worker to drain the inbox; call it after new rows have committed. Not awaited by
 * anyone: the rows are already durable. A request asked for while another is in flight or
 * just sent goes out once the spacing has passed, so every commit is followed by a request
 * sent after it.
 */
export function askForDrain(): void {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  void sendJob(WEBHOOK_DRAIN_QUEUE, {}, { singletonKey: DRAIN_KEY })
    .catch((error: unknown) =>
      logger.warn("inbox drain not requested; the sweep will process the events", {
        error: error instanceof Error ? error.message : String(error),
      }),
    )
    .finally(() => {
      setTimeout(() => {
        busy = false;
        if (again) {
          again = false;
          askForDrain();
        }
      }, SPACING_MS).unref();
    });
}
