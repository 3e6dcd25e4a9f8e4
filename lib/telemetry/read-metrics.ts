import "server-only";
import { sqlQuery } from "@/lib/db/client";
import { serviceConfig } from "@/lib/env";
import { WORKER_DIED_LATELY, WORKER_RUNS } from "@/lib/jobs/background-work";
import { COUNTERS, GAUGES, type CounterName, type GaugeName, type MetricFamily, type Point } from "./metric-catalog";

/**
 * Every metric of the app as it stands now, read from the database: the event counters every
 * process adds to (./event-counts.ts) and the gauges of work waiting (outbox, webhook inbox, job
 * queues, withdrawals, the budget, sign-in locks). Read when a collector or a scrape asks, never
 * on a request: six statements, each bounded by an index or a small table (the due part of the
 * outbox and inbox, the queued jobs, the current minute's budget row, the workers' heartbeats).
 */
export async function readMetrics(): Promise<MetricFamily[]> {
  const [counts, [now], jobs, withdrawals, locks, [workers]] = await Promise.all([
    sqlQuery<{ name: string; labels: string; value: string }>(
      `SELECT "name", "labels", "value"::text AS "value" FROM "TelemetryCount"`,
      [],
    ),
    sqlQuery<NowRow>(NOW_SQL, []),
    sqlQuery<{ name: string; depth: number; oldest: number }>(JOBS_SQL, []).catch(() => []), // before pg-boss installed its schema
    sqlQuery<{ state: string; n: number }>(`SELECT "state", count(*)::int AS "n" FROM "WithdrawalRequest" GROUP BY "state"`, []),
    sqlQuery<{ kind: string; n: number }>(LOCKS_SQL, []),
    sqlQuery<{ running: number; deaths: number }>(WORKERS_SQL, []),
  ]);

  const families: MetricFamily[] = [];
  for (const name of Object.keys(COUNTERS) as CounterName[]) {
    const points = counts
      .filter((row) => row.name === name)
      .map((row) => ({ labels: JSON.parse(row.labels), value: Number(row.value) }));
    families.push({ name, kind: "counter", help: COUNTERS[name], points });
  }
  const gauge = (name: GaugeName, points: Point[]) => families.push({ name, kind: "gauge", help: GAUGES[name], points });
  const one = (value: number | null | undefined) => [{ labels: {}, value: Number(value ?? 0) }];
  gauge("dgis_upstream_budget_used", one(now?.budgetUsed));
  gauge("dgis_upstream_budget_limit", one(serviceConfig().rateLimit));
  gauge("dgis_notification_outbox_backlog", one(now?.outboxBacklog));
  gauge("dgis_notification_outbox_oldest_seconds", one(now?.outboxOldest));
  gauge("dgis_webhook_inbox_backlog", one(now?.inboxBacklog));
  gauge("dgis_webhook_inbox_lag_seconds", one(now?.inboxLag));
  gauge(
    "dgis_job_queue_depth",
    jobs.map((row) => ({ labels: { queue: row.name }, value: Number(row.depth) })),
  );
  gauge(
    "dgis_job_queue_oldest_seconds",
    jobs.map((row) => ({ labels: { queue: row.name }, value: Number(row.oldest) })),
  );
  gauge(
    "dgis_withdrawals",
    withdrawals.map((row) => ({ labels: { state: row.state }, value: Number(row.n) })),
  );
  gauge(
    "dgis_sign_in_locks_active",
    locks.map((row) => ({ labels: { kind: row.kind }, value: Number(row.n) })),
  );
  gauge("dgis_workers_running", one(workers?.running));
  gauge("dgis_worker_deaths_last_hour", one(workers?.deaths));
  return families;
}

type NowRow = {
  budgetUsed: number | null;
  outboxBacklog: number;
  outboxOldest: number | null;
  inboxBacklog: number;
  inboxLag: number | null;
};

// Prisma keeps DateTime columns as UTC timestamps without time zone: "now" is taken likewise.
const NOW_SQL = `
  WITH clock AS (SELECT now() AT TIME ZONE 'UTC' AS t),
  outbox AS (
    SELECT count(*)::int AS n, min("dueAt") AS oldest FROM "NotificationDelivery", clock
    WHERE "status" IN ('pending', 'sending') AND "dueAt" <= clock.t
  ),
  inbox AS (
    SELECT count(*)::int AS n, min("receivedAt") AS oldest FROM "WebhookEvent" WHERE "state" IN ('pending', 'processing')
  )
  SELECT
    (SELECT "used" FROM "RateBudget", clock WHERE "windowStart" = date_trunc('minute', clock.t)) AS "budgetUsed",
    outbox.n AS "outboxBacklog",
    EXTRACT(EPOCH FROM clock.t - outbox.oldest)::float8 AS "outboxOldest",
    inbox.n AS "inboxBacklog",
    EXTRACT(EPOCH FROM clock.t - inbox.oldest)::float8 AS "inboxLag"
  FROM clock, outbox, inbox`;

const JOBS_SQL = `
  SELECT name, count(*)::int AS depth, EXTRACT(EPOCH FROM now() - min(start_after))::float8 AS oldest
  FROM pgboss.job WHERE state IN ('created', 'retry') AND start_after <= now() GROUP BY name`;

// The key's prefix says what is locked ("email", "ip", "second-factor", …); the rest never leaves the database.
const LOCKS_SQL = `
  SELECT split_part("key", ':', 1) AS kind, count(*)::int AS n FROM "SignInThrottle"
  WHERE "lockedUntil" > now() AT TIME ZONE 'UTC' GROUP BY 1`;

const WORKERS_SQL = `
  SELECT count(*) FILTER (WHERE ${WORKER_RUNS})::int AS "running",
         count(*) FILTER (WHERE ${WORKER_DIED_LATELY})::int AS "deaths"
  FROM "WorkerHeartbeat"`;
