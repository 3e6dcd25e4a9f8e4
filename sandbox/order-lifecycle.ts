import { generateArtifacts } from "./artifacts";
import { iso } from "./clock";
import type { Sandbox } from "./context";
import { conflict } from "./problem";
import type { Order, OrderStatus, Workspace } from "./state";
import { captureReservation, credit, releaseReservation } from "./wallet";

// The order state machine. Every status change goes through transition(), which checks this table,
// moves the money and announces the change by webhook.
//   reserved → processing → fulfilled → refunded
//   reserved | processing → failed

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  reserved: ["processing", "failed"],
  processing: ["fulfilled", "failed"],
  fulfilled: ["refunded"],
  failed: [],
  refunded: [],
};

const EVENT: Record<OrderStatus, string | null> = {
  reserved: null,
  processing: "order.processing",
  fulfilled: "order.fulfilled",
  failed: "order.failed",
  refunded: "order.refunded",
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

export function transition(sb: Sandbox, ws: Workspace, order: Order, to: OrderStatus, reason: string | null = null): void {
  if (!canTransition(order.status, to)) {
    throw conflict("invalid_transition", `An order in status ${order.status} cannot become ${to}.`, { status: order.status });
  }
  const now = sb.clock.now();
  if (to === "fulfilled") {
    captureReservation(ws, order.currency, order.totalCents, now);
    order.artifacts = generateArtifacts(sb.catalog, order, now);
  } else if (to === "failed") {
    releaseReservation(ws, order.currency, order.totalCents, now);
    order.failureReason = reason ?? "supplier_declined";
  } else if (to === "refunded") {
    // A refund returns the captured amount to the available balance; it is not a wallet.credited event.
    credit(ws, order.currency, order.totalCents, now);
  }
  order.status = to;
  order.updatedAtMs = now;
  const type = EVENT[to];
  if (type)
    sb.emit(ws.id, type, { orderId: order.id, clientReference: order.clientReference, status: to, occurredAtUtc: iso(now) });
  sb.changed();
}

// Automatic fulfilment: `processing` after a third of the delay, then `fulfilled` (or `failed` at failRate).
// Callbacks re-check the status, because the control plane may have moved the order meanwhile.
export function scheduleFulfilment(sb: Sandbox, workspaceId: string, orderId: string): void {
  const { mode, delayMs } = sb.settings.fulfilment;
  if (mode === "manual") return;
  const delay = delayMs ?? 1000 + Math.floor(Math.random() * 2000);
  const current = () => sb.state.workspaces.get(workspaceId)?.orders.get(orderId);
  sb.timers.set(
    () => {
      const ws = sb.state.workspaces.get(workspaceId);
      const order = current();
      if (ws && order?.status === "reserved") transition(sb, ws, order, "processing");
    },
    Math.floor(delay / 3),
  );
  sb.timers.set(() => {
    const ws = sb.state.workspaces.get(workspaceId);
    const order = current();
    if (!ws || !order) return;
    if (order.status === "reserved") transition(sb, ws, order, "processing");
    if (order.status !== "processing") return;
    const fails = Math.random() < sb.settings.fulfilment.failRate;
    transition(sb, ws, order, fails ? "failed" : "fulfilled", fails ? "supplier_declined" : null);
  }, delay);
}

// Orders caught mid-flight by a restart continue where they were.
export function resumeFulfilment(sb: Sandbox): void {
  for (const ws of sb.state.workspaces.values()) {
    for (const order of ws.orders.values()) {
      if (order.status === "reserved" || order.status === "processing") scheduleFulfilment(sb, ws.id, order.id);
    }
  }
}

export function findOrderAnywhere(sb: Sandbox, orderId: string): { ws: Workspace; order: Order } | null {
  for (const ws of sb.state.workspaces.values()) {
    const order = ws.orders.get(orderId);
    if (order) return { ws, order };
  }
  return null;
}
