import "server-only";
import type { JobInsert } from "pg-boss";
import type { QueueSpec } from "@/lib/jobs/define-job";
import { insertJobs } from "@/lib/jobs/send-job";

/**
 * A job for one inbox event: a failed event's retry (process-pending.ts), an admin's
 * reprocess, a claim released after its worker died. New events are not queued one by one:
 * they are drained from the inbox (drain-inbox.ts). Declared here, beside its senders, rather
 * than in jobs.ts: jobs.ts runs the sweep, which sends here, and must not be imported back.
 * Exclusive: one queued-or-running job per singleton key (the event id). Retries 5–10 s,
 * doubling, at most 10 min apart (about 20 min in all). A batch runs one order's events in
 * turn, each bounded by refreshOrder's 60 s deadline: 15 min to expire.
 */
export const WEBHOOK_PROCESS_QUEUE: QueueSpec = {
  name: "webhook.process",
  options: {
    policy: "exclusive",
    retryLimit: 8,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 600,
    expireInSeconds: 900,
    deleteAfterSeconds: 7 * 86_400,
  },
  notify: true,
};

/** `orderId` (order events) lets a worker run one order's events one after another. */
export type ProcessJob = { eventId: string; orderId?: string };

type Waiting = { job: JobInsert<ProcessJob>; done: (error?: unknown) => void };
const MAX_BATCH = 50;
const GATHER_MS = 2;
let waiting: Waiting[] = [];
let flushing: NodeJS.Timeout | null = null;

/**
 * Asks a worker to process one inbox event; resolves once the job is in the queue.
 *
 * The queue keeps at most one queued-or-running job per singleton key (normally the event
 * id), so the receiver and the sweep can both ask without piling up jobs; an admin's
 * reprocess passes its own key so that it is not held behind a retry waiting out its
 * backoff. Whether two jobs for one event could both do the work does not depend on this:
 * the inbox claim decides (claim-events.ts).
 *
 * Jobs asked for within a couple of milliseconds go in one INSERT: on PGlite, where the
 * database runs one statement at a time, a send per job is costly when many fail together.
 */
export function enqueueEventProcessing(
  eventId: string,
  options: { singletonKey?: string; startAfterSeconds?: number; orderId?: string } = {},
): Promise<void> {
  const job: JobInsert<ProcessJob> = {
    ...processJob(eventId, options.orderId),
    ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
  };
  return new Promise((resolve, reject) => {
    waiting.push({ job, done: (error) => (error === undefined ? resolve() : reject(error)) });
    if (waiting.length >= MAX_BATCH) void flush();
    else flushing ??= setTimeout(() => void flush(), GATHER_MS);
  });
}

/** The job that processes one inbox event, keyed by the event id (one queued-or-running job per event). */
function processJob(eventId: string, orderId: string | undefined): JobInsert<ProcessJob> {
  return { data: { eventId, ...(orderId ? { orderId } : {}) }, singletonKey: eventId };
}

async function flush(): Promise<void> {
  if (flushing) clearTimeout(flushing);
  flushing = null;
  const batch = waiting;
  waiting = [];
  if (batch.length === 0) return;
  try {
    // A job whose key is already queued is skipped by the queue (ON CONFLICT DO NOTHING).
    await insertJobs(
      WEBHOOK_PROCESS_QUEUE,
      batch.map((w) => w.job),
    );
    for (const w of batch) w.done();
  } catch (error) {
    for (const w of batch) w.done(error ?? new Error("enqueue failed"));
  }
}
