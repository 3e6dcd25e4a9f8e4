import { defineStateMachine } from "@/lib/state-machine";

/**
 * The order state machine as this app understands it. The contract names `reserved` and
 * `fulfilled`, and events for processing, failure and refunds (transitions "not shown");
 * the sandbox documents reserved → processing → fulfilled | failed, fulfilled → refunded.
 * The mirror only ever moves forward along this order, so a late or duplicate read
 * cannot take an order back. The upstream decides the moves; this table only orders them
 * (takeOrderStatus), so nothing here refuses what the upstream says.
 */
export const ORDER_STATUSES = ["reserved", "processing", "fulfilled", "failed", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const orderMachine = defineStateMachine({
  states: ORDER_STATUSES,
  moves: {
    reserved: ["processing", "fulfilled", "failed"],
    processing: ["fulfilled", "failed"],
    fulfilled: ["refunded"],
    failed: [],
    refunded: [],
  },
  labels: { reserved: "Reserved", processing: "Processing", fulfilled: "Fulfilled", failed: "Failed", refunded: "Refunded" },
  refuse: (from, to) => new Error(`an order cannot move from ${from} to ${to}`),
});

export const ORDER_STATUS_LABELS = orderMachine.labels;
export const FINAL_STATUSES: readonly OrderStatus[] = ["failed", "refunded"];
/** States the reconciliation job still watches. Fulfilled can still be refunded, but that comes by webhook. */
export const OPEN_STATUSES: readonly OrderStatus[] = ["reserved", "processing"];

const RANK: Record<OrderStatus, number> = { reserved: 0, processing: 1, fulfilled: 2, failed: 2, refunded: 3 };

export const canMoveOrder = orderMachine.canMove;

/** Whether `next` is newer than `current`: forward in the machine, never back. */
export function isForward(current: OrderStatus, next: OrderStatus): boolean {
  return RANK[next] > RANK[current] && canMoveOrder(current, next);
}

/**
 * The one rule by which the mirror takes a status the upstream reports: a newer read (by
 * the upstream's update time) or a forward move wins, a backward move never does.
 */
export function takeOrderStatus(current: OrderStatus, next: OrderStatus, newerRead: boolean): boolean {
  return (newerRead || isForward(current, next)) && !isForward(next, current);
}

export function orderStatusLabel(status: string): string {
  return orderMachine.is(status) ? ORDER_STATUS_LABELS[status] : status;
}
