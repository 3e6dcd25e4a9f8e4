import "server-only";
import type { Job, JobResult } from "pg-boss";
import { defineJob, type JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { askForDrain, WEBHOOK_DRAIN_QUEUE } from "./drain-inbox";
import { WEBHOOK_PROCESS_QUEUE, type ProcessJob } from "./enqueue-event";
import { groupByOrder } from "./group-by-order";
import { processEvent } from "./process-event";
import { processPendingEvents } from "./process-pending";

/** The inbox sweep: events whose drain request was lost, and claims whose worker died (process-pending.ts). */
export const WEBHOOK_SWEEP_QUEUE = periodicQueue("webhook.sweep", 300);

/** Rows claimed per pass of a drain; a full pass means there may be more. Small enough that a pass of slow events ends well inside the queue's expiry. */
const DRAIN_PASS = 50;
/** A drain hands over to a fresh one after this long, well inside its queue's expiry. */
const DRAIN_RUN_MS = 5 * 60_000;

/** The webhook inbox's jobs, run by the worker. */
export const webhookJobs: JobDefinition[] = [
  defineJob<object>({
    queue: WEBHOOK_DRAIN_QUEUE,
    // PGlite has no NOTIFY, so there the poll is what wakes a drain: a new event waits at most 0.5 s.
    work: (embedded) => ({ batchSize: 1, pollingIntervalSeconds: embedded ? 0.5 : 1, notifyPollingIntervalSeconds: 2 }),
    handle: () => drainInbox(),
  }),
  defineJob<ProcessJob>({
    queue: WEBHOOK_PROCESS_QUEUE,
    // Retries (5 s backoff and more), reprocesses and released claims: new events come through
    // the drain above. Fetched in batches, fetching again while batches come back full. Per-job
    // results, so that one failing event is retried alone instead of failing its whole batch.
    // NOTIFY only announces new jobs, not a retry whose backoff has run out: the poll stays.
    work: () => ({
      batchSize: 10,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: 1,
      notifyPollingIntervalSeconds: 2,
      perJobResults: true,
    }),
    handle: async (jobs) => (await Promise.all(groupByOrder(jobs, (job) => job.data.orderId).map(runInTurn))).flat(),
  }),
  periodicJob({ queue: WEBHOOK_SWEEP_QUEUE, everySeconds: () => 10, run: () => processPendingEvents({ olderThanMs: 5_000 }) }),
];

/** Every pending event, oldest first, one order's events in turn (process-pending.ts). */
async function drainInbox(): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { claimed } = await processPendingEvents({ olderThanMs: 0, limit: DRAIN_PASS });
    if (claimed < DRAIN_PASS) return;
    if (Date.now() - started > DRAIN_RUN_MS) return askForDrain();
  }
}

async function runInTurn(jobs: Job<ProcessJob>[]): Promise<JobResult[]> {
  const results: JobResult[] = [];
  for (const job of jobs) {
    try {
      const { outcome, state } = await processEvent(job.data.eventId);
      // Claimed by someone else right now (the sweep, another job): look again after the
      // retry delay, so that if that attempt fails the event still has a job behind it.
      if (outcome === "skipped" && state === "processing")
        results.push({ id: job.id, status: "failed", output: { message: "being processed elsewhere; checking again later" } });
      else results.push({ id: job.id, status: "completed" });
    } catch (error) {
      results.push({ id: job.id, status: "failed", output: { message: error instanceof Error ? error.message : String(error) } });
    }
  }
  return results;
}
