import "server-only";
import type { Job, JobResult } from "pg-boss";
import { db } from "@/lib/db/client";
import { defineJob, type JobDefinition } from "@/lib/jobs/define-job";
import { periodicJob, periodicQueue } from "@/lib/jobs/periodic-job";
import { insertJobs } from "@/lib/jobs/send-job";
import { eventJob, WEBHOOK_EVENT_QUEUE, type EventJob } from "./event-job";
import { processEvent } from "./process-event";

/**
 * Events without a job: restored from a backup (which does not hold the queue), stored before
 * jobs were stored with them, or written by hand. Their job is queued again; a second job for
 * an event that has one is harmless (it finds the event done, or waits its turn in the group).
 */
export const WEBHOOK_ADOPT_QUEUE = periodicQueue("webhooks.adopt", 300);

/** A pending event this old has no job in reach: its job is stored with it and fetched within seconds. */
const PENDING_ORPHAN_MS = 60_000;
/** A claim this old outlived its job's expiry (300 s): no attempt holds it any more. */
const CLAIM_ORPHAN_MS = 10 * 60_000;

/** The webhook inbox's jobs, run by the worker. */
export const webhookJobs: JobDefinition[] = [
  defineJob<EventJob>({
    queue: WEBHOOK_EVENT_QUEUE,
    // One job of an order at a time across every worker (pg-boss's groupConcurrency), the
    // oldest first; different orders side by side in a batch. PGlite has no NOTIFY, so there
    // the poll is what wakes a worker: a new event waits at most 0.5 s. Per-job results, so that
    // one failing event is retried alone instead of failing its whole batch.
    work: (embedded) => ({
      batchSize: 20,
      burstWhenBatchFull: true,
      groupConcurrency: 1,
      pollingIntervalSeconds: embedded ? 0.5 : 1,
      notifyPollingIntervalSeconds: 2,
      perJobResults: true,
    }),
    handle: (jobs) => Promise.all(jobs.map(runEventJob)),
  }),
  periodicJob({ queue: WEBHOOK_ADOPT_QUEUE, everySeconds: () => 3_600, run: adoptOrphanEvents }),
];

/**
 * A job's outcome for pg-boss: done once the event's outcome is recorded (processed, unknown
 * kind, a payload that can never work); failed, to be retried with backoff, when processing
 * failed. A `processing` event is taken over: its group's jobs run one at a time, so the claim
 * can only be an attempt whose worker died (the attempt count fences its late write).
 */
async function runEventJob(job: Job<EventJob>): Promise<JobResult> {
  try {
    await processEvent(job.data.eventId, ["pending", "failed", "processing"]);
    return { id: job.id, status: "completed" };
  } catch (error) {
    return { id: job.id, status: "failed", output: { message: error instanceof Error ? error.message : String(error) } };
  }
}

async function adoptOrphanEvents(): Promise<{ adopted: number }> {
  const orphans = await db().webhookEvent.findMany({
    where: {
      OR: [
        { state: "pending", receivedAt: { lt: new Date(Date.now() - PENDING_ORPHAN_MS) } },
        { state: "processing", processedAt: { lt: new Date(Date.now() - CLAIM_ORPHAN_MS) } },
      ],
    },
    orderBy: { receivedAt: "asc" },
    take: 1_000,
    select: { id: true, payload: true },
  });
  if (orphans.length > 0) await insertJobs(WEBHOOK_EVENT_QUEUE, orphans.map(eventJob));
  return { adopted: orphans.length };
}
