import { audit } from "./audit";
import { iso } from "./clock";
import type { Sandbox } from "./context";
import type { Authenticated } from "./keys";
import { findOrder } from "./orders";
import { conflict } from "./problem";
import type { Order, RevealRecord } from "./state";

// POST /orders/{id}/fulfillment: every new Idempotency-Key counts (and audits) one reveal;
// a retry with the same key returns the same reveal without counting again.

export function revealOrder(
  sb: Sandbox,
  auth: Authenticated,
  orderId: string,
  idempotencyKey: string,
  correlationId: string,
): { order: Order; record: RevealRecord } {
  const ws = auth.workspace;
  const order = findOrder(ws, orderId);
  const previous = ws.revealKeys.get(idempotencyKey);
  if (previous) {
    if (previous.orderId !== orderId) {
      throw conflict("idempotency_key_reuse", "This Idempotency-Key was already used to reveal another order.", {
        orderId: previous.orderId,
      });
    }
    return { order, record: previous };
  }
  if (order.status !== "fulfilled" || !order.artifacts) {
    throw conflict("order_not_fulfilled", `Order ${order.id} is ${order.status}; only fulfilled orders can be revealed.`, {
      status: order.status,
    });
  }
  order.revealCount += 1;
  const record: RevealRecord = { orderId, revealCount: order.revealCount, revealedAtMs: sb.clock.now() };
  ws.revealKeys.set(idempotencyKey, record);
  audit(sb, {
    workspaceId: ws.id,
    keyId: auth.key.id,
    action: "order.reveal",
    resourceId: order.id,
    correlationId,
    details: { revealCount: record.revealCount },
  });
  sb.changed();
  return { order, record };
}

export function revealView(order: Order, record: RevealRecord): Record<string, unknown> {
  return {
    orderId: order.id,
    revealCount: record.revealCount,
    revealedAtUtc: iso(record.revealedAtMs),
    artifacts: (order.artifacts ?? []).map((a) => ({
      type: a.type,
      value: a.value,
      expiresAtUtc: a.expiresAtMs === null ? null : iso(a.expiresAtMs),
      lineIndex: a.lineIndex,
      unitIndex: a.unitIndex,
    })),
  };
}
