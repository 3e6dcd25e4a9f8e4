/**
 * Typed application errors with a stable code. One place (lib/http/problem.ts) maps
 * them to HTTP statuses and problem documents; nothing branches on a message.
 * Upstream business codes (quote_expired, price_above_maximum, …) pass through as the
 * code, with the status the upstream gave, so the browser can say exactly what happened.
 */
export type ErrorCode =
  | "invalid_request"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "last_admin"
  | "email_taken"
  | "bad_origin"
  | "payload_too_large"
  | "unsupported_media_type"
  | "method_not_allowed"
  | "rate_limited"
  | "upstream_error"
  | "upstream_key_refused"
  | "upstream_unavailable"
  | "outcome_unknown"
  // Readiness (app/api/health/ready): why this instance should not be sent traffic.
  | "database_unreachable"
  | "migrations_pending"
  | "worker_stale";

export type FieldErrors = Record<string, string[]>;

/**
 * A brand rather than `instanceof` alone: the bundler may load this module more than once
 * in one server (one copy per route chunk), and an AppError from one copy must still be
 * recognised by the other.
 */
const BRAND = Symbol.for("dgis.AppError");

export class AppError extends Error {
  readonly [BRAND] = true;
  readonly code: string;
  readonly status?: number;
  readonly fieldErrors?: FieldErrors;
  readonly correlationId?: string;
  /** Extra members for the problem document (e.g. quotedTotal). Never secrets. */
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode | (string & {}),
    message: string,
    more: {
      status?: number;
      fieldErrors?: FieldErrors;
      correlationId?: string;
      extra?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(message, more.cause === undefined ? undefined : { cause: more.cause });
    this.name = "AppError";
    this.code = code;
    this.status = more.status;
    this.fieldErrors = more.fieldErrors;
    this.correlationId = more.correlationId;
    this.extra = more.extra;
  }
}

export function isAppError(error: unknown): error is AppError {
  return (
    error instanceof AppError ||
    (typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true)
  );
}
