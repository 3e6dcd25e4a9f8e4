import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { metrics, type Attributes, type Observable } from "@opentelemetry/api";
import type { ExportResult } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { scrubAttributes, scrubText } from "./scrub";

/**
 * Starts OpenTelemetry in this process: traces (each request's, through Next's own spans and
 * the http instrumentation; each job batch's, lib/telemetry/job-span.ts; each database query,
 * pg; each upstream call, undici) and metrics, exported over OTLP/HTTP (JSON) to
 * OTEL_EXPORTER_OTLP_ENDPOINT. Loaded only when that is set (instrumentation.ts for the web
 * processes, scripts/worker.ts for the worker): otherwise not one module of the SDK is loaded.
 *
 * The app's own metrics (lib/telemetry/metric-catalog.ts) come from the database and are the
 * same whichever process reads them, so only the worker exports them (one series per worker
 * instance); the web processes export their HTTP metrics.
 *
 * The SDK reads its standard variables itself: OTEL_EXPORTER_OTLP_ENDPOINT (and _HEADERS),
 * OTEL_SERVICE_NAME, OTEL_BSP_SCHEDULE_DELAY; OTEL_METRIC_EXPORT_INTERVAL is passed here.
 */
let sdk: NodeSDK | undefined;

export async function startTelemetry(role: "web" | "worker", options: { metricIntervalMs: number }): Promise<void> {
  if (sdk) return;
  sdk = new NodeSDK({
    resource: resourceFromAttributes({
      "service.name": process.env.OTEL_SERVICE_NAME || "dgis-backoffice",
      "service.instance.id": `${os.hostname()}:${process.pid}`,
      "app.process": role,
    }),
    // Only the attributes above: the default detectors add the process's command line and owner.
    resourceDetectors: [],
    spanProcessors: [new BatchSpanProcessor(new ScrubbingSpanExporter(new OTLPTraceExporter()))],
    metricReaders: [
      new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: options.metricIntervalMs }),
    ],
    instrumentations: [
      new HttpInstrumentation({
        // Next's static files are answered from memory: a span each would be noise.
        ignoreIncomingRequestHook: (req) => (req.url ?? "").startsWith("/_next/static/"),
      }),
      new UndiciInstrumentation(),
      // Statements with their placeholders, never their parameters; only inside a request's or a job's trace.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
    ],
  });
  sdk.start();
  // Next loads pg as an ES module (its package's `import` condition), which the instrumentation's
  // require hook does not see. Required once here, pg's classes are patched, and the ES module
  // wraps these same classes (Node shares one CommonJS instance between both).
  createRequire(path.join(process.cwd(), "package.json"))("pg");
  if (role === "worker") await observeAppMetrics();
}

/** Sends what is still buffered; the worker calls it when it stops. */
export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}

/** The app's metrics, read from the database at each collection (never on a request). */
async function observeAppMetrics(): Promise<void> {
  const { COUNTERS, GAUGES } = await import("./metric-catalog");
  const { readMetrics } = await import("./read-metrics");
  const meter = metrics.getMeter("dgis-backoffice");
  // OTLP names a counter without "_total": Prometheus adds it back (as /metrics shows it).
  const counters = Object.entries(COUNTERS).map(
    ([name, description]) => [name, meter.createObservableCounter(name.replace(/_total$/, ""), { description })] as const,
  );
  const gauges = Object.entries(GAUGES).map(
    ([name, description]) => [name, meter.createObservableGauge(name, { description })] as const,
  );
  const instruments = new Map<string, Observable>([...counters, ...gauges]);
  meter.addBatchObservableCallback(
    async (result) => {
      const families = await readMetrics().catch(() => []);
      for (const family of families) {
        const instrument = instruments.get(family.name);
        if (!instrument) continue;
        for (const point of family.points) result.observe(instrument, point.value, point.labels as Attributes);
      }
    },
    [...instruments.values()],
  );
}

/**
 * Every span as exported: attributes scrubbed (./scrub.ts: no query string, header of
 * credentials, email), its name and status message likewise, exception events without their
 * messages. The spans themselves are left as recorded; the exporter sees scrubbed views.
 */
class ScrubbingSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans.map(scrubbedSpan), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function scrubbedSpan(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    name: { value: scrubText(span.name) },
    attributes: { value: scrubAttributes(span.attributes) },
    status: { value: { code: span.status.code } },
    events: {
      value: span.events.map((event) => ({ ...event, attributes: scrubAttributes(event.attributes ?? {}, { messages: false }) })),
    },
  }) as ReadableSpan;
}
