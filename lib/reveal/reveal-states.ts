/**
 * The life of one code reveal (a CodeReveal row). Shared by the domain functions and the
 * pages (no server-only imports here). The row is committed `started` before the upstream
 * is asked, so every reveal the upstream ever served has a row.
 *
 *   started ──answer──▶ succeeded
 *      │  ▲
 *      ▼  └── retried under the same idempotency key
 *    failed
 *
 * `failed` means the upstream refused or did not answer; a failed attempt still counts
 * toward the hourly quota. A `started` row that stays so means "asked, answer unknown".
 */
export const REVEAL_STATES = ["started", "succeeded", "failed"] as const;
export type RevealState = (typeof REVEAL_STATES)[number];

export const REVEAL_STATE_LABELS: Record<RevealState, string> = {
  started: "Asked, no answer recorded",
  succeeded: "Revealed",
  failed: "Failed",
};

/** The allowed moves; lib/reveal/transition-reveal.ts is the one function that makes them. */
export const REVEAL_TRANSITIONS: Record<RevealState, readonly RevealState[]> = {
  started: ["succeeded", "failed"],
  failed: ["started"],
  succeeded: [],
};
