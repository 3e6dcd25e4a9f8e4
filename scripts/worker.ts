/**
 * `npm run worker`: the background worker (webhook inbox, order reconciliation, resuming
 * unsettled orders, withdrawals, bulk orders: the jobs every domain declares, gathered in
 * lib/worker-jobs.ts). It uses the environment it is given, exactly like the app: the local
 * launcher starts it beside the app with the same DATABASE_URL, SERVICE_* and AUTH_SECRET, and
 * with the payout key, which the app's web processes are never given (README, "The upstream's
 * keys"); production runs as many as it needs. It never starts a database of its own (the
 * embedded one belongs to the launcher's process) and does not migrate (start-up does).
 * SIGTERM/SIGINT: stop fetching, let running jobs finish (up to 15 s; pg-boss then fails what
 * is left, to be retried by the next worker, and a withdrawal caught mid-send is settled by its
 * own resolution: lib/withdrawals/send-withdrawal.ts), exit 0. A second signal more than
 * SAME_STOP_MS after the first (a person's second Ctrl-C) exits at once; one sooner is the same
 * request arriving twice (Ctrl-C signals the whole group, and the launcher relays it).
 */
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";

const JOBS_STOP_MS = 15_000;
const SAME_STOP_MS = 2_000;

async function main(): Promise<void> {
  // Key health says which process holds each key (lib/upstream/key-health.ts).
  process.env.APP_PROCESS = "worker";
  try {
    getEnv();
  } catch (error) {
    console.error(`[worker] ${error instanceof Error ? error.message : String(error)}`);
    console.error(
      "[worker] Start it through `npm start` (which runs it beside the app), or set DATABASE_URL and the SERVICE_* variables.",
    );
    process.exit(2);
  }
  // Before anything loads pg or undici, so that their instrumentations see them.
  const env = getEnv();
  const telemetry = env.OTEL_EXPORTER_OTLP_ENDPOINT ? await import("@/lib/telemetry/start-telemetry") : null;
  await telemetry?.startTelemetry("worker", {
    metricIntervalMs: env.OTEL_METRIC_EXPORT_INTERVAL,
    sampleRatio: env.OTEL_TRACES_SAMPLER_ARG,
  });
  const { listenToUpstreamReports } = await import("@/lib/settings/listen-to-upstream");
  listenToUpstreamReports();
  const { startWorker } = await import("@/lib/jobs/worker");
  const { WORKER_JOBS } = await import("@/lib/worker-jobs");
  const { db } = await import("@/lib/db/client");
  const worker = await startWorker(WORKER_JOBS);
  // The pid, for an operator (and the supervision tests) to find this process by.
  console.log(`[worker] running (pid ${process.pid}); SIGTERM to stop`);

  let stoppingSince: number | null = null;
  const stop = (signal: string) => {
    if (stoppingSince !== null) {
      if (Date.now() - stoppingSince > SAME_STOP_MS) process.exit(1);
      return;
    }
    stoppingSince = Date.now();
    logger.info("worker stopping", { signal });
    worker
      .stop(JOBS_STOP_MS)
      .then(() => db().$disconnect())
      .then(() => telemetry?.stopTelemetry())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error("worker did not stop cleanly", { error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(`[worker] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
