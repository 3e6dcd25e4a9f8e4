import { isAppError, type AppError } from "@/lib/errors";
import { RetryCountdown } from "./retry-countdown";

/**
 * For a page's `.catch`: a read refused for a while (429, `rate_limited`: the person's share of
 * the upstream's minute, or the workspace's minute, is used up) comes back as the error, for the
 * page to show `RetryLater` in place of what it could not read; anything else is thrown on.
 */
export function rateLimitedAsValue(error: unknown): AppError {
  if (isAppError(error) && error.code === "rate_limited") return error;
  throw error;
}

/** Whether an error is a refusal for a while, which `RetryLater` shows. */
export function isRateLimited(error: unknown): error is AppError & { code: "rate_limited" } {
  return isAppError(error) && error.code === "rate_limited";
}

/**
 * What a refused read could not do (`title`, in the page's words: "We could not check this id
 * yet"), why, and a live countdown after which the page reads itself again. The page keeps its
 * frame around it (heading, navigation, filters); one per page section that was refused.
 */
export function RetryLater({ error, title, testId }: { error: AppError; title: string; testId?: string }) {
  const seconds = typeof error.extra?.retryAfterSeconds === "number" ? error.extra.retryAfterSeconds : 60;
  const why =
    error.extra?.spent === "person"
      ? "You have used your share of this minute's calls to the Issuing Service, which keeps any one person from holding up the others."
      : "The workspace has used this minute's calls to the Issuing Service.";
  return (
    // A new key for each wait, so a refusal again after the retry counts down afresh.
    <RetryCountdown
      key={String(error.extra?.retryAt)}
      seconds={seconds}
      title={title}
      correlationId={error.correlationId}
      testId={testId}
    >
      {why}
    </RetryCountdown>
  );
}
