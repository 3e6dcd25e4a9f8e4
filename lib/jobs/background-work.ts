import "server-only";
import { sqlQuery } from "@/lib/db/client";

/**
 * Whether background work runs: some worker (any instance) has beaten within the last minute
 * and has not been recorded dead (lib/jobs/heartbeat.ts beats every 5 s, so a minute is twelve
 * missed beats, never a slow one; the launcher that sees its worker die marks its row at once,
 * recordWorkerDeath). `lastBeatAt`: when the newest worker last beat or died, which is when
 * background work stopped when it is not running; null when no worker has ever beaten.
 * `lastDeath`: the newest worker death within the last hour, and how, for the admin's home. Decided against the database's clock, which wrote the beats.
 * The one rule readiness, the "background work stopped" notice and the approvals read.
 */
export type BackgroundWork = { running: boolean; lastBeatAt: Date | null; lastDeath?: { at: Date; how: string } | null };

/** The rule, as SQL over a `WorkerHeartbeat` row: that instance runs; it died within the hour (told on the admin's home). */
export const WORKER_RUNS = `"diedAt" IS NULL AND "beatAt" > (now() AT TIME ZONE 'UTC') - interval '1 minute'`;
export const WORKER_DIED_LATELY = `"diedAt" > (now() AT TIME ZONE 'UTC') - interval '1 hour'`;

export const LAST_BEAT = `
  SELECT (extract(epoch FROM max(coalesce("diedAt", "beatAt"))) * 1000)::float8 AS "lastBeatMs",
         coalesce(bool_or(${WORKER_RUNS}), false) AS "running",
         (SELECT json_build_object('ms', extract(epoch FROM d."diedAt") * 1000, 'how', d."death")
          FROM "WorkerHeartbeat" d
          WHERE ${WORKER_DIED_LATELY}
          ORDER BY d."diedAt" DESC LIMIT 1) AS "lastDeath"
  FROM "WorkerHeartbeat"`;

export type LastBeatRow = { lastBeatMs: number | null; running: boolean; lastDeath: { ms: number; how: string } | null };

export function toBackgroundWork(row: LastBeatRow | undefined): BackgroundWork {
  const ms = row?.lastBeatMs ?? null;
  const death = row?.lastDeath ?? null;
  return {
    running: row?.running === true,
    lastBeatAt: ms === null ? null : new Date(ms),
    lastDeath: death ? { at: new Date(death.ms), how: death.how } : null,
  };
}

/** How long after this process started a worker that never beat is taken to be starting beside it. */
const STARTING_MS = 60_000;

/**
 * For the pages and approvals: "stopped" means no beat for a minute as far as this process has
 * watched, so the worker starting beside a fresh app is not called stopped in its first seconds.
 * Readiness (lib/health/readiness.ts) has no such grace: not ready until a worker has beaten.
 */
export async function backgroundWork(): Promise<BackgroundWork> {
  const [row] = await sqlQuery<LastBeatRow>(LAST_BEAT, []);
  const work = toBackgroundWork(row);
  if (!work.running && work.lastBeatAt === null && process.uptime() * 1000 < STARTING_MS) return { ...work, running: true };
  return work;
}
