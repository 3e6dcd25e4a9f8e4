import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

const tracer = trace.getTracer("dgis-backoffice");

/**
 * One trace per batch of jobs a worker runs: a span named after the queue, under which the
 * batch's database queries and upstream calls appear. The OpenTelemetry API only: without a
 * started SDK (lib/telemetry/start-telemetry.ts) the span is a no-op.
 */
export function inJobSpan<T>(queue: string, jobs: number, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(
    `job ${queue}`,
    {
      kind: SpanKind.CONSUMER,
      root: true,
      attributes: { "messaging.system": "pg-boss", "messaging.destination.name": queue, "messaging.batch.message_count": jobs },
    },
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
