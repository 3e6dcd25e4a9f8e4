import "server-only";
import { PgBoss, type ConstructorOptions } from "pg-boss";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import type { Jobs, QueueSpec } from "./define-job";

/**
 * The PostgreSQL-backed job queue (pg-boss), one lazily started instance per process. Role
 * "web" only sends (no maintenance, no cron, no timers: ARCHITECTURE.md, "Background work");
 * role "worker" (scripts/worker.ts) supervises and runs the schedules. On the embedded PGlite
 * (named by `SELECT version()`, not LOCAL_MODE) all connections share one session: no NOTIFY,
 * polling in batches, at most 3 connections
 * (docs/decisions/0015-job-queue-on-the-embedded-database.md).
 */
export type { Jobs };
type Role = Jobs["role"];

// On globalThis, not in module scope: Next bundles instrumentation.ts (which readies queues) apart
// from the route handlers that send, and both must see the same instances and created queues.
const globalForJobs = globalThis as unknown as {
  __jobs?: Partial<Record<Role, Promise<Jobs>>>;
  __queuesCreated?: WeakMap<PgBoss, Map<string, Promise<void>>>;
  __queuesReady?: WeakMap<PgBoss, Set<string>>;
};

/**
 * The process's queue. Without a role: the worker's instance when this process runs one,
 * else a send-only web instance. Concurrent first callers share one start.
 */
export function getQueue(role?: Role): Promise<Jobs> {
  const held = (globalForJobs.__jobs ??= {});
  const wanted: Role = role ?? (held.worker ? "worker" : "web");
  const existing = held[wanted];
  if (existing) return existing;
  const starting = start(wanted);
  held[wanted] = starting;
  // A failed start is forgotten so that the next call tries again (the database may be back).
  starting.catch(() => {
    if (held[wanted] === starting) delete held[wanted];
  });
  return starting;
}

/** Stops every instance this process started, letting running jobs finish (up to `timeoutMs`). */
export async function stopQueues(timeoutMs = 20_000): Promise<void> {
  const held = globalForJobs.__jobs ?? {};
  globalForJobs.__jobs = {};
  await Promise.all(
    Object.values(held).map(async (starting) => {
      const jobs = await starting.catch(() => null);
      await jobs?.boss.stop({ graceful: true, timeout: timeoutMs });
    }),
  );
}

/**
 * How often the worker's pg-boss takes the queues' statistics, reads them back and supervises
 * (default: a minute each). Among the statistics is each "stately" or "singleton" queue's list
 * of keys active at that moment, and a fetch skips those keys until the next read: a
 * continuation queued by a running job (the order import, a bulk order's next slice) could wait
 * two minutes. Supervision fails the jobs whose worker stopped beating (HEARTBEAT_SECONDS), so
 * its interval bounds how late that is seen. At 3 s a continuation is at most about 6 s late.
 */
const STATS_SECONDS = 3;

/**
 * A job whose worker has not touched it for this long is failed by pg-boss's supervisor (and
 * retried if its queue retries): a worker killed mid-job holds its job at most this long,
 * whatever the queue's expiry. pg-boss's `work` touches a running job every half of it.
 * Its minimum is 10 s. Why: docs/decisions/2026-11-28-one-queue-model.md.
 */
export const HEARTBEAT_SECONDS = 10;

async function start(role: Role): Promise<Jobs> {
  const env = getEnv();
  const embedded = await isPglite();
  const worker = role === "worker";
  const options: ConstructorOptions = {
    connectionString: env.DATABASE_URL,
    application_name: `dgis-${role}`,
    max: embedded ? 3 : worker ? 10 : 5,
    // Only a worker listens; a sender's jobs NOTIFY through the queue's own `notify` flag.
    useListenNotify: worker && !embedded,
    supervise: worker,
    schedule: worker,
    // Whichever process starts first installs the queue's schema (idempotent, under an
    // advisory lock), so a webhook can be queued before the first worker is up. The
    // follow-up index migrations it polls for are left to workers: once an hour here.
    migrate: true,
    ...(worker
      ? {
          monitorIntervalSeconds: STATS_SECONDS,
          queueCacheIntervalSeconds: STATS_SECONDS,
          superviseIntervalSeconds: STATS_SECONDS,
        }
      : { bamIntervalSeconds: 3_600 }),
  };
  const boss = new PgBoss(options);
  boss.on("error", (error: unknown) => logger.error("job queue error", { role, ...describeQueueError(error) }));
  try {
    await boss.start();
  } catch (error) {
    // Close its pool: the next caller starts a fresh instance, and PGlite has few connections to lose.
    await boss.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
    throw error;
  }
  logger.info("job queue started", { role, embedded });
  return { boss, embedded, role };
}

const created = (globalForJobs.__queuesCreated ??= new WeakMap());
const ready = (globalForJobs.__queuesReady ??= new WeakMap());

/**
 * An instance of this process on which `queue` is already created, for a send inside a caller's
 * transaction, which must not start or create one (send-job.ts, insertJobs); else the process's
 * queue, made ready now.
 */
export async function queueReadyFor(queue: QueueSpec): Promise<Jobs> {
  for (const starting of Object.values(globalForJobs.__jobs ?? {})) {
    const jobs = await starting.catch(() => null);
    if (jobs && ready.get(jobs.boss)?.has(queue.name)) return jobs;
  }
  const jobs = await getQueue();
  await ensureQueue(jobs, queue);
  return jobs;
}

/**
 * Creates a queue once per instance: a sender before its first send (so a webhook can be
 * queued before the first worker is up), a worker before it takes jobs. createQueue leaves
 * an existing queue as it was, so a worker also brings it up to the code's options.
 */
export function ensureQueue(jobs: Jobs, queue: QueueSpec): Promise<void> {
  const done = created.get(jobs.boss) ?? new Map<string, Promise<void>>();
  created.set(jobs.boss, done);
  let creating = done.get(queue.name);
  if (!creating) {
    creating = createQueue(jobs, queue);
    creating.then(
      () => (ready.get(jobs.boss) ?? ready.set(jobs.boss, new Set()).get(jobs.boss)!).add(queue.name),
      () => done.delete(queue.name),
    );
    done.set(queue.name, creating);
  }
  return creating;
}

async function createQueue(jobs: Jobs, queue: QueueSpec): Promise<void> {
  const { boss, embedded, role } = jobs;
  const { policy, heartbeatSeconds, ...settings } = queue.options;
  const options = { ...settings, notify: !embedded && queue.notify === true };
  // Not updatable in place (pg-boss's updateQueue omits it): set at creation only.
  const created = { ...options, policy, ...(heartbeatSeconds ? { heartbeatSeconds } : {}) };
  // A dead-letter queue (`<queue>.dead`) keeps what its queue gave up on; it must exist first.
  if (settings.deadLetter) await boss.createQueue(settings.deadLetter, { deleteAfterSeconds: DEAD_KEPT_SECONDS });
  await boss.createQueue(queue.name, created);
  if (role === "worker") {
    const stored = await boss.getQueue(queue.name);
    if (queue.disposable && (stored?.policy !== policy || (stored?.heartbeatSeconds ?? undefined) !== heartbeatSeconds)) {
      await boss.deleteQueue(queue.name);
      await boss.createQueue(queue.name, created);
    }
    await boss.updateQueue(queue.name, options);
  }
  // pg-boss looks a queue up on its own connections at its first send after creating it: done
  // here, so that a send inside a caller's transaction (insertJobs' `within`) never waits on one.
  await boss.getJobById(queue.name, NO_JOB);
}

/** How long a dead-lettered job is kept for a look (the domain's own row says what failed). */
const DEAD_KEPT_SECONDS = 30 * 86_400;
const NO_JOB = "00000000-0000-0000-0000-000000000000";

async function isPglite(): Promise<boolean> {
  const rows = await db().$queryRaw<{ version: string }[]>`SELECT version() AS version`;
  return /PGlite/i.test(rows[0]?.version ?? "");
}

/**
 * What a log line may say of a pg-boss "error" event: an Error, or (from a worker's fetch or a
 * job's run) a plain object copied from one, with its message and the queue's name. Only those:
 * the rest of such an object is the error's own fields, and nothing of a job's data belongs in a log.
 */
export function describeQueueError(error: unknown): { error: string; queue?: string } {
  if (error instanceof Error) return { error: error.message };
  if (typeof error === "object" && error !== null) {
    const { message, queue } = error as { message?: unknown; queue?: unknown };
    return {
      error: typeof message === "string" ? message : "an error without a message",
      ...(typeof queue === "string" ? { queue } : {}),
    };
  }
  return { error: String(error) };
}
