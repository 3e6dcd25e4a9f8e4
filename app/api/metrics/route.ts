import { getEnv } from "@/lib/env";
import { problem } from "@/lib/http/problem";
import { flushEventCounts } from "@/lib/telemetry/event-counts";
import { hasMetricsToken } from "@/lib/telemetry/metrics-token";
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from "@/lib/telemetry/prometheus-text";
import { readMetrics } from "@/lib/telemetry/read-metrics";

/**
 * The app's metrics as Prometheus text (also at /metrics, next.config.mjs), for a scraper
 * holding METRICS_TOKEN as a bearer token; without METRICS_TOKEN set this address does not
 * exist. Read from the database, so any web process gives the whole app's answer.
 */
export async function GET(req: Request) {
  const token = getEnv().METRICS_TOKEN;
  if (!token) return problem("not_found", "There is nothing at this address.");
  if (!hasMetricsToken(req.headers.get("authorization"), token)) {
    const refused = problem("unauthenticated", "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.");
    refused.headers.set("www-authenticate", 'Bearer realm="metrics"');
    return refused;
  }
  await flushEventCounts();
  return new Response(prometheusText(await readMetrics()), {
    headers: { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" },
  });
}
