/**
 * The inbox's processing states and the event kinds the contract names (§6); no server-only
 * imports, so the admin page shares them.
 *
 *   pending ──claim──▶ processing ──▶ processed | unknown_kind
 *      ▲                   │
 *      └── reprocess ── failed ◀──┘ (retried by the queue with backoff, or reprocessed)
 *
 * `refused`: a signed delivery the database can never store (NUL, unpaired surrogates), answered
 * 422 so the sender stops, kept escaped for an admin, never (re)processed (refuse-event.ts).
 * `processing` is a claim: `attempts`, raised by each claim, is its fencing token, and
 * `processedAt` holds when the claim was taken until the outcome replaces it.
 */
export const EVENT_STATES = ["pending", "processing", "processed", "failed", "unknown_kind", "refused"] as const;
export type EventState = (typeof EVENT_STATES)[number];

export const EVENT_KINDS = ["order.processing", "order.fulfilled", "order.failed", "order.refunded", "wallet.credited"] as const;

export const EVENT_STATE_LABELS: Record<EventState, string> = {
  pending: "Pending",
  processing: "Processing",
  processed: "Processed",
  failed: "Failed",
  unknown_kind: "Unknown kind",
  refused: "Refused (unstorable)",
};

/** States an admin may send back to the queue. */
export const REPROCESSABLE_STATES: readonly EventState[] = ["failed", "unknown_kind"];
