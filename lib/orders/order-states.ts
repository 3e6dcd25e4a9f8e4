/**
 * The order state machine as this app understands it. The contract names `reserved` and
 * `fulfilled`, and events for processing, failure and refunds (transitions "not shown");
 * the sandbox documents reserved → processing → fulfilled | failed, fulfilled → refunded.
 * The mirror only ever moves forward along this order, so a late or duplicate read
 * cannot take an order back.
 */
export const ORDER_STATUSES = ["reserved", "processing", "fulfilled", "failed", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const FINAL_STATUSES: readonly OrderStatus[] = ["failed", "refunded"];
/** States the reconciliation job still watches. Fulfilled can still be refunded, but that comes by webhook. */
export const OPEN_STATUSES: readonly OrderStatus[] = ["reserved", "processing"];

const RANK: Record<OrderStatus, number> = { reserved: 0, processing: 1, fulfilled: 2, failed: 2, refunded: 3 };

const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = {
  reserved: ["processing", "fulfilled", "failed"],
  processing: ["fulfilled", "failed"],
  fulfilled: ["refunded"],
  failed: [],
  refunded: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return from === to || ALLOWED[from].includes(to);
}

/** Whether `next` is newer than `current`: forward in the machine, never back. */
export function isForward(current: OrderStatus, next: OrderStatus): boolean {
  return RANK[next] > RANK[current] && canMove(current, next);
}
