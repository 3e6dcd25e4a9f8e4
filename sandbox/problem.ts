// Problem documents (RFC 9457). Handlers throw SandboxError; one place (http/reply.ts) turns it into a response.

export type FieldErrors = Record<string, string[]>;

export type Problem = {
  status: number;
  code: string;
  detail: string;
  errors?: FieldErrors;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

// A class only so that `throw` carries the problem and `instanceof` recognises it in the one catch.
export class SandboxError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.detail);
    this.problem = problem;
  }
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function titleFor(status: number): string {
  return TITLES[status] ?? "Error";
}

export function invalidRequest(detail: string, errors?: FieldErrors): SandboxError {
  return new SandboxError({ status: 400, code: "invalid_request", detail, errors });
}

export function unauthorized(detail: string): SandboxError {
  return new SandboxError({ status: 401, code: "unauthorized", detail });
}

export function forbidden(detail: string): SandboxError {
  return new SandboxError({ status: 403, code: "forbidden", detail });
}

export function notFound(detail: string): SandboxError {
  return new SandboxError({ status: 404, code: "not_found", detail });
}

export function conflict(code: string, detail: string, extra?: Record<string, unknown>): SandboxError {
  return new SandboxError({ status: 409, code, detail, extra });
}

export function problemBody(problem: Problem, correlationId: string): Record<string, unknown> {
  return {
    ...problem.extra,
    title: titleFor(problem.status),
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    correlationId,
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
}

export function asProblem(error: unknown): Problem {
  if (error instanceof SandboxError) return error.problem;
  return { status: 500, code: "internal_error", detail: "The sandbox failed unexpectedly; see its stderr." };
}
