/**
 * The order a buyer submitted, kept in sessionStorage until its outcome is known, so that
 * a reload during submit resends the same request under the same idempotency key and
 * lands on the one order instead of making a second.
 */
export type PendingSubmission = { key: string; body: Record<string, unknown>; at: number };

const storageKey = (productId: string) => `pending-order:${productId}`;
const MAX_AGE_MS = 24 * 3_600_000;

export function savePending(productId: string, submission: PendingSubmission): void {
  try {
    sessionStorage.setItem(storageKey(productId), JSON.stringify(submission));
  } catch {
    // Storage full or disabled: the in-memory key still protects against double clicks.
  }
}

export function loadPending(productId: string): PendingSubmission | null {
  try {
    const raw = sessionStorage.getItem(storageKey(productId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as PendingSubmission;
    return Date.now() - parsed.at < MAX_AGE_MS ? parsed : null;
  } catch {
    return null;
  }
}

export function clearPending(productId: string): void {
  try {
    sessionStorage.removeItem(storageKey(productId));
  } catch {
    // nothing to clear
  }
}
