/**
 * Every failure of an upstream call is a ServiceError. `code` is the upstream's problem
 * code when it sent one, or one of ours for transport failures; callers branch on `code`.
 */
export type TransportCode =
  "timeout" | "network_error" | "malformed_response" | "deadline_exceeded" | "budget_exhausted" | "share_exceeded";

/** Recognised by brand as well as class: the bundler may load this module more than once. */
const BRAND = Symbol.for("dgis.ServiceError");

export class ServiceError extends Error {
  readonly [BRAND] = true;
  readonly status: number;
  readonly code: string;
  readonly correlationId?: string;
  readonly errors?: Record<string, string[]>;
  /** Extra problem members the contract defines (e.g. quotedTotal on price_above_maximum). */
  readonly extra: Record<string, unknown>;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    correlationId?: string;
    errors?: Record<string, string[]>;
    extra?: Record<string, unknown>;
  }) {
    super(init.message);
    this.name = "ServiceError";
    this.status = init.status;
    this.code = init.code;
    this.correlationId = init.correlationId;
    this.errors = init.errors;
    this.extra = init.extra ?? {};
  }

  /** No answer, or a server fault: the request may or may not have taken effect. */
  get outcomeUnknown(): boolean {
    return this.code === "timeout" || this.code === "network_error" || this.code === "deadline_exceeded" || this.status >= 500;
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError ||
    (typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true)
  );
}

/** The upstream's 401/403/404/409/429 codes, when the contract leaves them unnamed. */
export function defaultCodeFor(status: number): string {
  if (status === 400) return "invalid_request";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "upstream_unavailable";
  return `http_${status}`;
}
