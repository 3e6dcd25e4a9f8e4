import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import { logger } from "@/lib/log";

/** How often a worker beats; readiness and the pages call it stopped after a minute of silence (lib/jobs/background-work.ts). */
export const BEAT_EVERY_MS = 5_000;

/** The jobs in hand listed at most (a full batch of a busy queue says enough). */
const LISTED = 20;

export type JobInHand = { queue: string; id: string; since: string };

/** The jobs a worker holds: taken before a handler runs, let go when it returns or throws. */
export type JobsInHand = {
  took(queue: string, jobs: readonly { id: string }[]): void;
  finished(jobs: readonly { id: string }[]): void;
  list(): JobInHand[];
};

export function jobsInHand(): JobsInHand {
  const held = new Map<string, JobInHand>();
  return {
    took(queue, jobs) {
      const since = new Date().toISOString();
      for (const job of jobs) held.set(job.id, { queue, id: job.id, since });
    },
    finished(jobs) {
      for (const job of jobs) held.delete(job.id);
    },
    list: () => [...held.values()].slice(0, LISTED),
  };
}

export type Heartbeat = {
  instance: string;
  /** Beats once more (the row keeps when it stopped, and what was still in hand) and lets go of its connection. */
  stop(): Promise<void>;
};

/**
 * A worker's heartbeat: its row in `WorkerHeartbeat` (instance, host, pid, when it started, its
 * last beat and the jobs in hand), written every `everyMs` by a timer of its own through a
 * connection of its own. So a long job, or jobs holding every pooled connection, cannot delay
 * a beat: only a process that no longer runs (or whose database is gone) stops beating. A
 * beat still in flight makes the next tick skip, never pile up. Once a minute it prunes the
 * rows of instances silent for a day (a restart takes a new instance; a day keeps the last
 * crashes on the admin's home).
 */
export async function startHeartbeat(
  databaseUrl: string,
  options: { working: () => JobInHand[]; everyMs?: number },
): Promise<Heartbeat> {
  const everyMs = options.everyMs ?? BEAT_EVERY_MS;
  const instance = randomUUID();
  const startedAt = new Date().toISOString();
  let client: pg.Client | null = null;
  let beating: Promise<void> | null = null;
  let beats = 0;

  const connect = async (): Promise<pg.Client> => {
    if (client) return client;
    const fresh = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: everyMs, query_timeout: everyMs });
    // A connection the database drops is replaced at the next beat; unheard, its error would end the process.
    fresh.on("error", () => {
      if (client === fresh) client = null;
    });
    await fresh.connect();
    return (client = fresh);
  };

  const beat = async (): Promise<void> => {
    const working = options.working();
    try {
      const connection = await connect();
      await connection.query(BEAT, [instance, hostname(), process.pid, startedAt, JSON.stringify(working)]);
      if (beats++ % Math.max(1, Math.round(60_000 / everyMs)) === 0) await connection.query(PRUNE, [instance]);
    } catch (error) {
      logger.warn("worker heartbeat not recorded", { error: error instanceof Error ? error.message : String(error) });
      const broken = client;
      client = null;
      await broken?.end().catch(() => undefined);
    }
  };

  const tick = () => {
    if (beating) return;
    beating = beat().finally(() => (beating = null));
  };

  await beat();
  const timer = setInterval(tick, everyMs);
  timer.unref();

  return {
    instance,
    async stop() {
      clearInterval(timer);
      await beating;
      await beat();
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}

// Times are written in UTC, as Prisma writes every DateTime column, from the database's clock,
// which is also the clock readers compare them with.
const BEAT = `
  INSERT INTO "WorkerHeartbeat" ("instance", "host", "pid", "startedAt", "beatAt", "working")
  VALUES ($1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', $5::jsonb)
  ON CONFLICT ("instance") DO UPDATE SET "beatAt" = EXCLUDED."beatAt", "working" = EXCLUDED."working"`;

const PRUNE = `
  DELETE FROM "WorkerHeartbeat"
  WHERE "instance" <> $1 AND "beatAt" < (now() AT TIME ZONE 'UTC') - interval '1 day'`;

/**
 * Records that the worker process `pid` of this host died (`how`: "killed by SIGKILL", "exit
 * code 1"), for its supervisor (the launcher, scripts/lib/supervise-child.ts) to call before it
 * starts another: readiness and the pages count it out at once rather than after a minute of
 * silence, and the admin's home says when and how it died. The dead process cannot say it
 * itself. A worker stopped on purpose is not marked: its last beat keeps it counted for the
 * minute a planned restart takes, so a rolling upgrade does not make every instance unready.
 * Bounded by a short timeout: a restart never waits on a database that is gone.
 */
export async function recordWorkerDeath(databaseUrl: string, death: { pid: number; how: string }): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000, query_timeout: 2_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query(
      `UPDATE "WorkerHeartbeat" SET "diedAt" = now() AT TIME ZONE 'UTC', "death" = $3
       WHERE "host" = $1 AND "pid" = $2 AND "diedAt" IS NULL`,
      [hostname(), death.pid, death.how],
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
