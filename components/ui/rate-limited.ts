import { isAppError, type AppError } from "@/lib/errors";

/**
 * For a page's `.catch`: a person past their share of the upstream budget (429, `rate_limited`)
 * comes back as the error, for the page to say calmly how long to wait ("You are going faster
 * than the Issuing Service allows… try again in N s"); anything else is thrown on.
 */
export function rateLimitedAsValue(error: unknown): AppError {
  if (isAppError(error) && error.code === "rate_limited") return error;
  throw error;
}
