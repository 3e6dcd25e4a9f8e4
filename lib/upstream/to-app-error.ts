import { AppError, isAppError } from "@/lib/errors";
import { isServiceError, type ServiceError } from "@/lib/upstream/client";

/**
 * What an upstream failure means to the person who asked. Business refusals (409) keep
 * the upstream's code so the page can explain them; the upstream's correlationId always
 * travels along, for support. Applied once, by the wired client (./service.ts): callers
 * of upstream() only ever see AppErrors, each keeping the ServiceError as its cause.
 */
export function toAppError(error: unknown): unknown {
  if (!isServiceError(error)) return error;
  const correlationId = error.correlationId;
  const cause = error;
  const wait = budgetWait(error);
  if (wait !== null) {
    const seconds = Math.max(1, Math.ceil(wait.ms / 1000));
    return new AppError(
      "rate_limited",
      wait.own
        ? `You are going faster than the Issuing Service allows for one person. Try again in ${seconds} s.`
        : `The workspace has used this minute's calls to the Issuing Service. Try again in ${seconds} s.`,
      // `spent`: whose calls of the minute ran out; `retryAt`: when the wait ends (a page counts down to it).
      {
        status: 429,
        correlationId,
        extra: {
          retryAfterSeconds: seconds,
          retryAt: new Date(Date.now() + seconds * 1000).toISOString(),
          spent: wait.own ? "person" : "workspace",
        },
        cause,
      },
    );
  }
  if (error.status === 409)
    return new AppError(error.code, error.message, { status: 409, correlationId, extra: error.extra, cause });
  if (error.status === 404)
    return new AppError("not_found", "The Issuing Service does not know this item.", { correlationId, cause });
  if (error.status === 400) {
    return new AppError("invalid_request", error.message, { correlationId, fieldErrors: error.errors, cause });
  }
  if (error.status === 401 || error.status === 403) {
    // Which key, and for a 403 the upstream's own words ("The API key lacks the scope orders.create."): no secret in either.
    // Admins were alerted (lib/upstream/key-health.ts notifies them) and Settings shows them the fix.
    const name = error.extra.key;
    const key = name === "read" || name === "ordering" || name === "payout" ? name : "general";
    const said = error.status === 403 && error.message ? `: ${error.message}` : ".";
    return new AppError(
      "upstream_key_refused",
      `${PAUSED[key]} is paused for everyone: the Issuing Service refused the back-office's ${key === "general" ? "API" : key} key${said} Admins have been alerted and shown how to fix it.`,
      {
        correlationId,
        cause,
        extra: { key, ...(typeof error.extra.scope === "string" ? { scope: error.extra.scope } : {}) },
      },
    );
  }
  if (error.code === "no_key_for_scope") {
    return new AppError(
      "upstream_error",
      `This part of the back-office holds no Issuing Service key with the scope ${String(error.extra.scope)}; an admin must configure one.`,
      { cause, extra: { scope: error.extra.scope } },
    );
  }
  if (error.code === "malformed_response") return new AppError("upstream_error", error.message, { correlationId, cause });
  return new AppError("upstream_unavailable", "The Issuing Service is not answering right now. Try again in a minute.", {
    correlationId,
    cause,
  });
}

/** What stops when each key is refused, in the words of the person refused. */
const PAUSED = {
  read: "Reading from the Issuing Service",
  ordering: "Ordering",
  payout: "Paying out",
  general: "This part of the back-office",
} as const;

/**
 * A call that was never sent, or refused with 429, for want of budget: how long to wait, and
 * whether it was the person's own share (rather than the workspace's minute) that ran out.
 * These are our own queue, not the upstream failing: a 429 with Retry-After, never a 503.
 */
function budgetWait(error: ServiceError): { ms: number; own: boolean } | null {
  const ms = typeof error.extra.retryAfterMs === "number" ? error.extra.retryAfterMs : 60_000;
  if (error.code === "share_exceeded") return { ms, own: true };
  if (error.code === "budget_exhausted" || error.status === 429) return { ms, own: false };
  return null;
}

/**
 * The upstream's own answer behind a failed upstream() call, for the few callers that act
 * on it rather than show it: a 404 that means "none yet", an outcome that is unknown, the
 * upstream's code and message recorded on a withdrawal. Undefined for any other error.
 */
export function upstreamFailure(error: unknown): ServiceError | undefined {
  if (isServiceError(error)) return error;
  return isAppError(error) && isServiceError(error.cause) ? error.cause : undefined;
}
