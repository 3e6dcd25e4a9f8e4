/**
 * Next's start-up hook (instrumentation.ts, run once per server process before it serves).
 * OpenTelemetry starts only when OTEL_EXPORTER_OTLP_ENDPOINT is set, and only then is the
 * SDK loaded (a dynamic import): without it, no module of it is loaded and nothing is spent.
 * README "Telemetry"; lib/telemetry/start-telemetry.ts. First, the domains listen to what the
 * upstream layer reports (lib/upstream/reports.ts), and the notification queue starts.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { listenToUpstreamReports } = await import("./lib/settings/listen-to-upstream");
  listenToUpstreamReports();
  // Notifications queue their deliveries inside their event's transaction, where the queue
  // cannot start: it starts here (a failure is logged; the first notification tries again).
  const { readyDeliveries } = await import("./lib/notifications/delivery-queue");
  await readyDeliveries().catch(async (error: unknown) => {
    const { logger } = await import("./lib/log");
    logger.warn("notification queue not ready at start", { error: error instanceof Error ? error.message : String(error) });
  });
  const { getEnv } = await import("./lib/env");
  const env = getEnv();
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return;
  const { startTelemetry } = await import("./lib/telemetry/start-telemetry");
  await startTelemetry("web", { metricIntervalMs: env.OTEL_METRIC_EXPORT_INTERVAL, sampleRatio: env.OTEL_TRACES_SAMPLER_ARG });
}
