import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { metrics, type Attributes, type Context, type Link, type Observable, type SpanKind } from "@opentelemetry/api";
import type { ExportResult } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { NodeSDK } from "@opentelemetry/sdk-node";
import {
  BatchSpanProcessor,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type ReadableSpan,
  type Sampler,
  type SamplingResult,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { scrubAttributes, scrubText } from "./scrub";

/**
 * Starts OpenTelemetry in this process: traces (requests through Next's own spans, job batches,
 * database queries, upstream calls) and metrics, over OTLP/HTTP (JSON) to
 * OTEL_EXPORTER_OTLP_ENDPOINT; loaded only when that is set (instrumentation.ts, scripts/worker.ts).
 * The app's own metrics (lib/telemetry/metric-catalog.ts) come from the database, so only the
 * worker exports them; web processes export traces. The SDK reads its standard OTEL_* variables
 * itself; OTEL_METRIC_EXPORT_INTERVAL and OTEL_TRACES_SAMPLER_ARG are passed here.
 */
let sdk: NodeSDK | undefined;

export async function startTelemetry(
  role: "web" | "worker",
  options: { metricIntervalMs: number; sampleRatio: number },
): Promise<void> {
  if (sdk) return;
  sdk = new NodeSDK({
    resource: resourceFromAttributes({
      "service.name": process.env.OTEL_SERVICE_NAME || "dgis-backoffice",
      "service.instance.id": `${os.hostname()}:${process.pid}`,
      "app.process": role,
    }),
    // Only the attributes above: the default detectors add the process's command line and owner.
    resourceDetectors: [],
    sampler: new RequestWorkSampler(options.sampleRatio),
    spanProcessors: [new BatchSpanProcessor(new ScrubbingSpanExporter(new OTLPTraceExporter()))],
    metricReaders:
      role === "worker"
        ? [
            new PeriodicExportingMetricReader({
              exporter: new OTLPMetricExporter(),
              exportIntervalMillis: options.metricIntervalMs,
            }),
          ]
        : [],
    // No http instrumentation: Next's own server span is each request's root (with the route,
    // and the caller's traceparent), and a second one per request cost CPU for nothing new.
    instrumentations: [
      new UndiciInstrumentation(),
      // Statements with their placeholders, never their parameters; only inside a request's or a job's trace.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true, ignoreConnectSpans: true }),
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
 * Of Next's own spans, the request (its root, with the route), the route handler's run and the
 * page's render are recorded; the rest (loading and preparing modules, building the component
 * tree, starting the response) are most of a page view's spans, say nothing of the request's
 * work, and cost CPU on every view: not recorded at all. Every other span (database, upstream,
 * jobs) is kept by the ratio of OTEL_TRACES_SAMPLER_ARG, decided by trace id, so a trace is kept
 * or dropped whole whatever its spans' parents.
 */
const NEXT_KEPT = new Set(["BaseServer.handleRequest", "AppRouteRouteHandlers.runHandler", "AppRender.getBodyResult"]);

class RequestWorkSampler implements Sampler {
  private readonly ratio: Sampler;

  constructor(ratio: number) {
    this.ratio = new TraceIdRatioBasedSampler(ratio);
  }

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const nextType = attributes["next.span_type"];
    if (nextType !== undefined && !NEXT_KEPT.has(String(nextType))) return { decision: SamplingDecision.NOT_RECORD };
    return this.ratio.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return "RequestWorkSampler";
  }
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
