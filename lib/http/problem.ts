import { randomUUID } from "node:crypto";
import { z } from "zod";
import { isAppError, type ErrorCode, type FieldErrors } from "@/lib/errors";
import { logger } from "@/lib/log";
import { noteOnSpan } from "@/lib/telemetry/span-attributes";
import { fieldErrorsFrom } from "@/lib/validation";

/** RFC 9457 problem document, the shape of every non-2xx answer of this app's API. */
export type Problem = {
  [member: string]: unknown;
  type: "about:blank";
  title: string;
  status: number;
  detail: string;
  code: string;
  correlationId: string;
  errors?: FieldErrors;
};

const STATUS: Record<string, { status: number; title: string }> = {
  invalid_request: { status: 400, title: "Invalid request" },
  unauthenticated: { status: 401, title: "Sign-in required" },
  forbidden: { status: 403, title: "Forbidden" },
  bad_origin: { status: 403, title: "Cross-origin request refused" },
  not_found: { status: 404, title: "Not found" },
  conflict: { status: 409, title: "Conflict" },
  last_admin: { status: 409, title: "At least one active admin must remain" },
  email_taken: { status: 409, title: "Email already in use" },
  payload_too_large: { status: 413, title: "Request too large" },
  unsupported_media_type: { status: 415, title: "Unsupported content type" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  rate_limited: { status: 429, title: "Too many requests to the Issuing Service" },
  upstream_error: { status: 502, title: "The Issuing Service did not answer as expected" },
  upstream_key_refused: { status: 502, title: "The Issuing Service refused the back-office's key" },
  upstream_unavailable: { status: 503, title: "The Issuing Service is not answering" },
  outcome_unknown: { status: 503, title: "Outcome not confirmed yet" },
  database_unreachable: { status: 503, title: "Not ready: database unreachable" },
  migrations_pending: { status: 503, title: "Not ready: migrations pending" },
  worker_stale: { status: 503, title: "Not ready: background work stopped" },
} satisfies Record<ErrorCode, { status: number; title: string }>;

export function problem(
  code: ErrorCode | (string & {}),
  detail: string,
  extra: { errors?: FieldErrors; correlationId?: string; status?: number; members?: Record<string, unknown> } = {},
): Response {
  const { status, headers, body } = problemAnswer(code, detail, extra);
  return new Response(body, { status, headers });
}

/** An answer as plain data, for the edge that writes it itself (lib/edge: the gate's refusals, the webhook door). */
export type PlainAnswer = { status: number; headers: Record<string, string>; body: string };

/** `problem()`'s answer as plain data: the same document, status and headers. */
export function problemAnswer(
  code: ErrorCode | (string & {}),
  detail: string,
  extra: { errors?: FieldErrors; correlationId?: string; status?: number; members?: Record<string, unknown> } = {},
): PlainAnswer {
  const known = STATUS[code];
  const document: Problem = {
    ...extra.members,
    type: "about:blank",
    title: known?.title ?? "Request refused",
    status: extra.status ?? known?.status ?? 409,
    detail,
    code,
    correlationId: extra.correlationId ?? randomUUID(),
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
  noteOnSpan({ "app.correlation_id": document.correlationId });
  return {
    status: document.status,
    headers: {
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      "x-correlation-id": document.correlationId,
      // A 429's wait, in the header clients and proxies read (RFC 9110) as well as in the document.
      ...(typeof document.retryAfterSeconds === "number" ? { "retry-after": String(document.retryAfterSeconds) } : {}),
    },
    body: JSON.stringify(document),
  };
}

/** Maps anything thrown by a handler to a problem document; unknown errors are logged, never shown. */
export function problemFromError(error: unknown): Response {
  if (isAppError(error)) {
    return problem(error.code, error.message, {
      errors: error.fieldErrors,
      correlationId: error.correlationId,
      status: error.status,
      members: error.extra,
    });
  }
  if (error instanceof z.ZodError) {
    return problem("invalid_request", "Some fields are not valid.", { errors: fieldErrorsFrom(error) });
  }
  const correlationId = randomUUID();
  logger.error("unhandled error in route handler", {
    correlationId,
    error: error instanceof Error ? error.message : String(error),
  });
  return Response.json(
    {
      type: "about:blank",
      title: "Internal error",
      status: 500,
      detail: "Something went wrong on our side. Quote the correlation id to support.",
      code: "internal_error",
      correlationId,
    },
    {
      status: 500,
      headers: { "content-type": "application/problem+json", "cache-control": "no-store", "x-correlation-id": correlationId },
    },
  );
}
