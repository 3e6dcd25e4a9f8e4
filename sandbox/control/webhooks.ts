import { iso } from "../clock";
import { route } from "../http/router";
import { newId } from "../ids";
import { conflict, notFound } from "../problem";
import type { WebhookEndpoint } from "../state";
import { createReader, readString, readStringArray, rejectUnknown } from "../validate";
import { redeliver } from "../webhook-delivery";
import { deliveryView, endpointView, EVENT_TYPES } from "../webhooks";
import { controlBody, controlParam, readWorkspaceId, type ControlHandler, type ControlRoute } from "./context";

// Registering webhook endpoints (not shown by the contract) and inspecting deliveries, including parked ones.

export const webhookRoutes: ControlRoute[] = [
  route<ControlHandler>("POST", "/_sandbox/webhook-endpoints", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["url", "secret", "eventTypes", "workspace"]);
    const url = readString(r, body, "url", "url", {
      required: true,
      max: 2000,
      pattern: /^https?:\/\/[^\s]+$/,
      patternMessage: "Must be an http(s) URL.",
    });
    const secret = readString(r, body, "secret", "secret", {
      max: 256,
      pattern: /^\S{8,}$/,
      patternMessage: "Must be at least 8 non-space characters.",
    });
    const eventTypes = readStringArray(r, body, "eventTypes", "eventTypes") ?? null;
    for (const type of eventTypes ?? [])
      if (!(EVENT_TYPES as readonly string[]).includes(type)) r.add("eventTypes", `Unknown event type ${type}.`);
    const workspaceId = readWorkspaceId(r, body);
    r.fail();
    const endpoint = registerEndpoint(ctx.sb.state.endpoints, {
      workspaceId,
      url: url ?? "",
      secret: secret ?? ctx.sb.state.defaultWebhookSecret,
      eventTypes,
      now: ctx.sb.clock.now(),
    });
    ctx.sb.changed();
    return { status: 201, json: endpointView(endpoint, true) };
  }),
  route<ControlHandler>("GET", "/_sandbox/webhook-endpoints", (ctx) => ({
    status: 200,
    json: { items: [...ctx.sb.state.endpoints.values()].map((e) => endpointView(e, true)) },
  })),
  route<ControlHandler>("DELETE", "/_sandbox/webhook-endpoints/:endpointId", (ctx) => {
    const id = controlParam(ctx, "endpointId");
    const endpoint = ctx.sb.state.endpoints.get(id);
    if (!endpoint) throw notFound(`Webhook endpoint ${id} does not exist.`);
    ctx.sb.state.endpoints.delete(id);
    ctx.sb.changed();
    return { status: 200, json: endpointView(endpoint, false) };
  }),
  route<ControlHandler>("GET", "/_sandbox/webhook-deliveries", (ctx) => {
    const status = ctx.query.get("status");
    const endpointId = ctx.query.get("endpointId");
    const eventType = ctx.query.get("eventType");
    const items = [...ctx.sb.state.deliveries.values()]
      .filter(
        (d) =>
          (status === null || d.status === status) &&
          (endpointId === null || d.endpointId === endpointId) &&
          (eventType === null || d.eventType === eventType),
      )
      .map(deliveryView);
    return { status: 200, json: { items } };
  }),
  route<ControlHandler>("POST", "/_sandbox/webhook-deliveries/:deliveryId/redeliver", (ctx) => {
    const delivery = ctx.sb.state.deliveries.get(controlParam(ctx, "deliveryId"));
    if (!delivery) throw notFound(`Delivery ${controlParam(ctx, "deliveryId")} does not exist.`);
    if (delivery.status === "pending") throw conflict("delivery_pending", "The delivery is still being attempted.");
    redeliver(ctx.sb, delivery);
    return { status: 202, json: deliveryView(delivery) };
  }),
  route<ControlHandler>("GET", "/_sandbox/events", (ctx) => {
    const type = ctx.query.get("type");
    const items = ctx.sb.state.events
      .filter((e) => type === null || e.type === type)
      .map((e) => ({ workspace: e.workspaceId, receivedAtUtc: iso(e.occurredAtMs), envelope: JSON.parse(e.body) as unknown }));
    return { status: 200, json: { items } };
  }),
];

// Registering the same URL twice in a workspace updates it rather than delivering every event twice.
export function registerEndpoint(
  endpoints: Map<string, WebhookEndpoint>,
  input: { workspaceId: string; url: string; secret: string; eventTypes: string[] | null; now: number },
): WebhookEndpoint {
  const existing = [...endpoints.values()].find((e) => e.workspaceId === input.workspaceId && e.url === input.url);
  const endpoint: WebhookEndpoint = {
    id: existing?.id ?? newId("whe"),
    workspaceId: input.workspaceId,
    url: input.url,
    secret: input.secret,
    eventTypes: input.eventTypes,
    createdAtMs: existing?.createdAtMs ?? input.now,
  };
  endpoints.set(endpoint.id, endpoint);
  return endpoint;
}
