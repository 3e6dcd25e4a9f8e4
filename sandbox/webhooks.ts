import { randomUUID } from "node:crypto";
import { iso } from "./clock";
import type { Sandbox } from "./context";
import { newId, randomToken } from "./ids";
import { pushBounded, type Delivery, type WebhookEndpoint } from "./state";
import { scheduleAttempt } from "./webhook-delivery";

// Events: an envelope {id, type, occurredAtUtc, data} serialized once, then one delivery per registered
// endpoint of the workspace. Payloads never carry artifacts or buyer data.

export const EVENT_TYPES = ["order.processing", "order.fulfilled", "order.failed", "order.refunded", "wallet.credited"] as const;
const MAX_EVENTS = 5_000;
const MAX_FINISHED_DELIVERIES = 5_000;

export function newWebhookSecret(): string {
  return `svcwh_${randomToken(40)}`;
}

export function emitEvent(sb: Sandbox, workspaceId: string, type: string, data: Record<string, unknown>): void {
  const now = sb.clock.now();
  const id = randomUUID();
  const occurredAtUtc = typeof data.occurredAtUtc === "string" ? data.occurredAtUtc : iso(now);
  const body = JSON.stringify({ id, type, occurredAtUtc, data });
  pushBounded(sb.state.events, { id, workspaceId, type, occurredAtMs: now, body }, MAX_EVENTS);
  for (const endpoint of sb.state.endpoints.values()) {
    if (endpoint.workspaceId !== workspaceId) continue;
    if (endpoint.eventTypes && !endpoint.eventTypes.includes(type)) continue;
    const delivery: Delivery = {
      id: newId("dlv"),
      endpointId: endpoint.id,
      workspaceId,
      eventId: id.replace(/-/g, ""),
      eventType: type,
      body,
      status: "pending",
      attempts: [],
      attemptsInCycle: 0,
      nextAttemptAtRealMs: Date.now(),
      parkedReason: null,
      createdAtMs: now,
    };
    sb.state.deliveries.set(delivery.id, delivery);
    scheduleAttempt(sb, delivery.id, 0);
  }
  pruneDeliveries(sb);
  sb.changed();
}

// Delivered history is bounded; pending and parked deliveries are always kept (never silently dropped).
function pruneDeliveries(sb: Sandbox): void {
  if (sb.state.deliveries.size <= MAX_FINISHED_DELIVERIES) return;
  const finished = [...sb.state.deliveries.values()].filter((d) => d.status === "delivered");
  if (finished.length <= MAX_FINISHED_DELIVERIES) return;
  for (const d of finished.slice(0, finished.length - MAX_FINISHED_DELIVERIES)) sb.state.deliveries.delete(d.id);
}

export function resumeDeliveries(sb: Sandbox): void {
  for (const d of sb.state.deliveries.values()) {
    if (d.status === "pending") scheduleAttempt(sb, d.id, Math.max(0, (d.nextAttemptAtRealMs ?? 0) - Date.now()));
  }
}

export function endpointView(endpoint: WebhookEndpoint, withSecret: boolean): Record<string, unknown> {
  return {
    id: endpoint.id,
    workspace: endpoint.workspaceId,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    createdAtUtc: iso(endpoint.createdAtMs),
    ...(withSecret ? { secret: endpoint.secret } : {}),
  };
}

export function deliveryView(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    endpointId: d.endpointId,
    workspace: d.workspaceId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    parkedReason: d.parkedReason,
    attemptCount: d.attempts.length,
    attempts: d.attempts,
    nextAttemptAtUtc: d.status === "pending" && d.nextAttemptAtRealMs !== null ? iso(d.nextAttemptAtRealMs) : null,
    payload: JSON.parse(d.body) as unknown,
  };
}
