import type { Job, JobResult, PgBoss, Queue, WorkOptions } from "pg-boss";

/**
 * The shapes a domain declares its background work in (`lib/<domain>/jobs.ts`); lib/jobs
 * creates the queues, sends and runs them without knowing any domain.
 *
 * A queue: its name and pg-boss options (policy, retries, expiry, retention). `notify`
 * wakes a listening worker at once on PostgreSQL (never on PGlite, which has no NOTIFY).
 * `disposable`: its jobs may be dropped (a periodic job's beats), so a worker recreates the queue
 * when its policy changed, which pg-boss cannot update in place.
 */
export type QueueSpec = { name: string; options: Omit<Queue, "name" | "partition">; notify?: boolean; disposable?: boolean };

/** A started queue instance: "web" only sends, "worker" also runs jobs and schedules (queue.ts). */
export type Jobs = { boss: PgBoss; embedded: boolean; role: "web" | "worker" };

/** What a handler may use besides its jobs: the instance it runs on (to send through, see sendJob). */
export type JobContext = Jobs;

/**
 * A job definition: a queue, how a worker fetches from it, what it does with a batch, and
 * its schedule if it has one. A handler that returns results reports each job on its own
 * (pg-boss `perJobResults`): one failing job is retried alone instead of its whole batch.
 * A definition with a schedule is periodic: `startWorker(list, { periodic: false })` leaves it out.
 */
export type JobDefinition = {
  queue: QueueSpec;
  work: (embedded: boolean) => WorkOptions;
  // The data type is the definition's own; the registry only passes jobs through.
  handle: (jobs: Job<never>[], context: JobContext) => Promise<void | JobResult[]>;
  schedule?: Schedule;
};

/**
 * `setup` runs before the first send; `startup` queues one job at once (a key of its own, so
 * a link already waiting does not swallow it); `cron` with `data` queues a job on that beat.
 * `everySeconds`: a periodic job's pass (./periodic-job.ts, the only maker of this shape).
 */
export type Schedule =
  { cron: string; data?: object; startup: boolean; setup?: () => Promise<unknown> } | { everySeconds: () => number };

/** A definition whose handler takes the jobs' data as `T`. */
export function defineJob<T>(
  definition: Omit<JobDefinition, "handle"> & { handle: (jobs: Job<T>[], context: JobContext) => Promise<void | JobResult[]> },
): JobDefinition {
  return definition as JobDefinition;
}
