/**
 * Typed application errors with a stable code. One place (lib/http/problem.ts) maps
 * them to HTTP statuses and problem documents; nothing branches on a message.
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
  | "upstream_error";

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors?: FieldErrors;
  readonly correlationId?: string;

  constructor(code: ErrorCode, message: string, extra: { fieldErrors?: FieldErrors; correlationId?: string } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fieldErrors = extra.fieldErrors;
    this.correlationId = extra.correlationId;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
