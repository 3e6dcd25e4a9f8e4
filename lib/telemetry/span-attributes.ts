import { trace } from "@opentelemetry/api";

/**
 * Notes on the span of the work in progress (a request's, a job's), for whoever reads the
 * trace: the role that asked, the correlation id a person may quote. Only the OpenTelemetry
 * API, which does nothing until telemetry starts an SDK (lib/telemetry/start-telemetry.ts):
 * never an email, a secret or a code.
 */
export function noteOnSpan(attributes: { "app.role"?: string; "app.correlation_id"?: string; "app.job.queue"?: string }): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
