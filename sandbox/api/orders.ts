import { route } from "../http/router";
import { listOrders } from "../order-list";
import { orderView, quoteView } from "../order-view";
import { findOrder, placeOrder } from "../orders";
import { createQuote } from "../quotes";
import { revealOrder, revealView } from "../reveal";
import { readIdempotencyKey } from "../validate";
import { param, type ApiEndpoint, type ApiRoute } from "./context";

export const orderRoutes: ApiRoute[] = [
  route<ApiEndpoint>("POST", "/api/v1/quotes", {
    scope: "quotes.create",
    readsBody: true,
    handle: ({ sb, auth, body, correlationId }) => ({ status: 201, json: quoteView(createQuote(sb, auth, body, correlationId)) }),
  }),
  route<ApiEndpoint>("POST", "/api/v1/orders", {
    scope: "orders.create",
    readsBody: true,
    handle: ({ sb, auth, headers, body, correlationId }) => {
      const key = readIdempotencyKey(headers["idempotency-key"]);
      const { order } = placeOrder(sb, auth, key, body, correlationId);
      return { status: 202, json: orderView(order), headers: { Location: `/api/v1/orders/${order.id}` } };
    },
  }),
  route<ApiEndpoint>("GET", "/api/v1/orders", {
    scope: "orders.read",
    readsBody: false,
    handle: ({ auth, query }) => ({ status: 200, json: listOrders(auth.workspace, query) }),
  }),
  route<ApiEndpoint>("GET", "/api/v1/orders/:orderId", {
    scope: "orders.read",
    readsBody: false,
    handle: (ctx) => ({ status: 200, json: orderView(findOrder(ctx.auth.workspace, param(ctx, "orderId"))) }),
  }),
  route<ApiEndpoint>("POST", "/api/v1/orders/:orderId/fulfillment", {
    scope: "orders.read",
    readsBody: false, // the contract shows no body; anything sent is ignored
    handle: (ctx) => {
      const key = readIdempotencyKey(ctx.headers["idempotency-key"]);
      const { order, record } = revealOrder(ctx.sb, ctx.auth, param(ctx, "orderId"), key, ctx.correlationId);
      return { status: 200, json: revealView(order, record), headers: { "Cache-Control": "no-store" } };
    },
  }),
];
