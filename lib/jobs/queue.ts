import "server-only";
import { PgBoss, type ConstructorOptions, type Queue, type QueuePolicy } from "pg-boss";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";

/**
 * The PostgreSQL-backed job queue (pg-boss), one lazily started instance per process.
 *
 * - role "web" (route handlers): only sends. No maintenance, no cron: that is the
 *   worker's job, and a web process must not run timers of its own (ARCHITECTURE.md).
 * - role "worker" (scripts/worker.ts): supervises (expires stuck jobs, deletes old ones)
 *   and runs the schedules.
 *
 * On the embedded PGlite (detected from `SELECT version()`, which names it; LOCAL_MODE is
 * not used, since local mode may point at a real PostgreSQL) every socket
 * connection shares one database session, so LISTEN/NOTIFY never reaches a listener and
 * more than a few connections crash the server (docs/environment.md): notify is off, jobs
 * are found by polling in batches, and the pool is capped at 3. On PostgreSQL workers are
 * woken by NOTIFY, with polling as the floor.
 */
export const QUEUE = {
  webhookProcess: "webhook.process",
  webhookSweep: "webhook.sweep",
  ordersReconcile: "orders.reconcile",
  ordersResume: "orders.resume-pending",
  ordersImport: "orders.import",
  ordersSync: "orders.sync",
  withdrawalsMaintain: "withdrawals.maintain",
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

export type Jobs = { boss: PgBoss; embedded: boolean; role: Role };
type Role = "web" | "worker";

// Stately = at most one queued and one running job per singleton key: the periodic jobs
// re-send themselves with a delay, and this is what keeps it one chain across any number
// of workers. Exclusive = one queued-or-running job per event id.
const QUEUE_POLICY: Record<QueueName, QueuePolicy> = {
  "webhook.process": "exclusive",
  "webhook.sweep": "stately",
  "orders.reconcile": "stately",
  "orders.resume-pending": "stately",
  "orders.import": "stately",
  "orders.sync": "stately",
  "withdrawals.maintain": "stately",
};
const QUEUE_SETTINGS: Record<QueueName, Omit<Queue, "name" | "policy" | "partition">> = {
  // Retries 5–10 s, doubling, at most 10 min apart (about 20 min in all). A batch runs one
  // order's events in turn, each bounded by refreshOrder's 60 s deadline: 15 min to expire.
  "webhook.process": { retryLimit: 8, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 900, deleteAfterSeconds: 7 * 86_400 },
  "webhook.sweep": { retryLimit: 0, expireInSeconds: 300, deleteAfterSeconds: 3_600 },
  "orders.reconcile": { retryLimit: 0, expireInSeconds: 300, deleteAfterSeconds: 3_600 },
  "orders.resume-pending": { retryLimit: 0, expireInSeconds: 600, deleteAfterSeconds: 3_600 },
  // One page a job (a call and one INSERT): seconds, not minutes.
  "orders.import": { retryLimit: 0, expireInSeconds: 300, deleteAfterSeconds: 3_600 },
  "orders.sync": { retryLimit: 0, expireInSeconds: 600, deleteAfterSeconds: 3_600 },
  "withdrawals.maintain": { retryLimit: 0, expireInSeconds: 600, deleteAfterSeconds: 3_600 },
};

const globalForJobs = globalThis as unknown as { __jobs?: Partial<Record<Role, Promise<Jobs>>> };

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
    ...(worker ? {} : { bamIntervalSeconds: 3_600 }),
  };
  const boss = new PgBoss(options);
  boss.on("error", (error: unknown) => logger.error("job queue error", { role, error: error instanceof Error ? error.message : String(error) }));
  try {
    await boss.start();
    for (const name of Object.values(QUEUE)) {
      const settings = { ...QUEUE_SETTINGS[name], notify: !embedded && name === QUEUE.webhookProcess };
      await boss.createQueue(name, { ...settings, policy: QUEUE_POLICY[name] });
      // createQueue leaves an existing queue as it was: a worker brings it up to this code.
      if (worker) await boss.updateQueue(name, settings);
    }
  } catch (error) {
    // Close its pool: the next caller starts a fresh instance, and PGlite has few connections to lose.
    await boss.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
    throw error;
  }
  logger.info("job queue started", { role, embedded });
  return { boss, embedded, role };
}

async function isPglite(): Promise<boolean> {
  const rows = await db().$queryRaw<{ version: string }[]>`SELECT version() AS version`;
  return /PGlite/i.test(rows[0]?.version ?? "");
}
