import { AppError } from "@/lib/errors";
import { isServiceError } from "@/lib/upstream/client";

/**
 * What an upstream failure means to the person who asked. Business refusals (409) keep
 * the upstream's code so the page can explain them; the upstream's correlationId always
 * travels along, for support.
 */
export function toAppError(error: unknown): unknown {
  if (!isServiceError(error)) return error;
  const correlationId = error.correlationId;
  if (error.status === 409) return new AppError(error.code, error.message, { status: 409, correlationId, extra: error.extra });
  if (error.status === 404) return new AppError("not_found", "The Issuing Service does not know this item.", { correlationId });
  if (error.status === 400) {
    return new AppError("invalid_request", error.message, { correlationId, fieldErrors: error.errors });
  }
  if (error.status === 401 || error.status === 403) {
    return new AppError("upstream_error", "The Issuing Service refused the back-office's API key. An admin must check the key and its scopes.", { correlationId });
  }
  if (error.code === "malformed_response") return new AppError("upstream_error", error.message, { correlationId });
  return new AppError("upstream_unavailable", "The Issuing Service is not answering right now. Try again in a minute.", { correlationId });
}

export function rethrowAsAppError(error: unknown): never {
  throw toAppError(error);
}
