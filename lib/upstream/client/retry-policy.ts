/**
 * The contract's retry rules (section 7), as pure functions:
 * - "read": GETs — retried on timeout, network error and 5xx with capped exponential
 *   backoff and full jitter (about 1, 2, 4, 8 s), 5 attempts in all.
 * - "idempotent": POST /orders and /fulfillment — the same, always under the same
 *   Idempotency-Key, so a retry returns the order the first attempt created.
 * - "never": POST /withdrawals (no idempotency) and other writes — never resent blindly.
 * Every kind waits for Retry-After on 429 (a 429 was not processed). Other 4xx: no retry.
 */
export type RetryKind = "read" | "idempotent" | "never";

export const MAX_ATTEMPTS = 5;

export function shouldRetry(kind: RetryKind, outcome: { status?: number; transport?: "timeout" | "network_error" }): boolean {
  if (outcome.status === 429) return true;
  if (kind === "never") return false;
  if (outcome.transport) return true;
  return outcome.status !== undefined && outcome.status >= 500;
}

/** Full jitter: a random delay in [0, min(cap, base·2^(attempt−1))]. */
export function backoffMs(attempt: number, baseMs: number, capMs = 8 * baseMs, random = Math.random): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));
}

/** Retry-After in seconds or as an HTTP date; at least 1 s when unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : 1000;
}
