/**
 * Next's start-up hook (instrumentation.ts, run once per server process before it serves).
 * OpenTelemetry starts only when OTEL_EXPORTER_OTLP_ENDPOINT is set, and only then is the
 * SDK loaded (a dynamic import): without it, no module of it is loaded and nothing is spent.
 * README "Telemetry"; lib/telemetry/start-telemetry.ts. First, the domains listen to what the
 * upstream layer reports (lib/upstream/reports.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { listenToUpstreamReports } = await import("./lib/settings/listen-to-upstream");
  listenToUpstreamReports();
  const { getEnv } = await import("./lib/env");
  const env = getEnv();
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return;
  const { startTelemetry } = await import("./lib/telemetry/start-telemetry");
  await startTelemetry("web", { metricIntervalMs: env.OTEL_METRIC_EXPORT_INTERVAL, sampleRatio: env.OTEL_TRACES_SAMPLER_ARG });
}
