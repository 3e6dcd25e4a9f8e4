import { audit } from "../audit";
import { addProductCopy, invalidateRenderings } from "../catalog";
import { depositView, recordDeposit } from "../deposits";
import { route } from "../http/router";
import { findOrderAnywhere, transition } from "../order-lifecycle";
import { orderView } from "../order-view";
import { conflict, notFound } from "../problem";
import { productView, UNIT_FACTOR_PPM } from "../product-view";
import { seedOrders } from "../seed-orders";
import { workspaceFor, type OrderStatus } from "../state";
import {
  createReader,
  isObject,
  readAmount,
  readBoolean,
  readCurrency,
  readInteger,
  readNumber,
  readString,
  rejectUnknown,
} from "../validate";
import { balanceView, setAvailable } from "../wallet";
import {
  controlBody,
  controlParam,
  readWorkspaceId,
  type ControlContext,
  type ControlHandler,
  type ControlRoute,
} from "./context";

// The outside world the public API cannot move: chain deposits, catalog changes, order outcomes, refunds.

export const simulationRoutes: ControlRoute[] = [
  route<ControlHandler>("POST", "/_sandbox/deposits", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["amount", "currency", "onChain", "workspace"]);
    const amountCents = readAmount(r, body, "amount", "amount", { required: true, min: 1 });
    const currency = readCurrency(r, body, "currency", "currency", false) ?? "USD";
    const onChain = readBoolean(r, body, "onChain", "onChain");
    const workspaceId = readWorkspaceId(r, body);
    r.fail();
    const ws = workspaceFor(ctx.sb.state, workspaceId);
    const deposit = recordDeposit(ctx.sb, ws, amountCents ?? 0, currency, onChain);
    return { status: 201, json: depositView(deposit, ctx.sb.clock.now()) };
  }),
  route<ControlHandler>("PUT", "/_sandbox/wallet", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["balances", "workspace"]);
    const workspaceId = readWorkspaceId(r, body);
    const balances = isObject(body.balances) ? body.balances : (r.add("balances", 'Must be an object such as {"USD": 100}.'), {});
    const parsed: [string, number][] = [];
    for (const currency of Object.keys(balances)) {
      if (readCurrency(r, { currency }, "currency", `balances.${currency}`) === undefined) continue;
      const cents = readAmount(r, balances, currency, `balances.${currency}`, { required: true });
      if (cents !== undefined) parsed.push([currency, cents]);
    }
    r.fail();
    const ws = workspaceFor(ctx.sb.state, workspaceId);
    for (const [currency, cents] of parsed) setAvailable(ws, currency, cents, ctx.sb.clock.now());
    ctx.sb.changed();
    return { status: 200, json: { workspace: ws.id, items: [...ws.balances.entries()].map(([c, b]) => balanceView(c, b)) } };
  }),
  route<ControlHandler>("PUT", "/_sandbox/products/:productId", (ctx) => {
    const product = ctx.sb.catalog.byId.get(controlParam(ctx, "productId"));
    if (!product) throw notFound(`Product ${controlParam(ctx, "productId")} does not exist.`);
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["isAvailable", "priceFactor"]);
    const isAvailable = readBoolean(r, body, "isAvailable", "isAvailable");
    const priceFactor = readNumber(r, body, "priceFactor", "priceFactor", { min: 0.01, max: 100 });
    r.fail();
    const override = { ...ctx.sb.state.productOverrides.get(product.id) };
    if (isAvailable !== undefined) override.isAvailable = isAvailable;
    if (priceFactor !== undefined) override.priceFactorPpm = Math.round(priceFactor * UNIT_FACTOR_PPM);
    ctx.sb.state.productOverrides.set(product.id, override);
    invalidateRenderings(ctx.sb.catalog, product.id);
    ctx.sb.changed();
    return { status: 200, json: productView(ctx.sb.state, product) };
  }),
  // A product published after start (a copy of an existing one under a new name and id): what a
  // watch of its brand or country must notice. Lives until the sandbox stops, like the seed catalog.
  route<ControlHandler>("POST", "/_sandbox/products", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["copyOf", "name"]);
    const copyOf = readString(r, body, "copyOf", "copyOf", { required: true, max: 200 });
    const name = readString(r, body, "name", "name", { required: true, max: 200 });
    r.fail();
    const source = ctx.sb.catalog.byId.get(copyOf ?? "");
    if (!source) throw notFound(`Product ${copyOf} does not exist.`);
    const product = addProductCopy(ctx.sb.catalog, source, name ?? source.name);
    ctx.sb.changed();
    return { status: 201, json: productView(ctx.sb.state, product) };
  }),
  route<ControlHandler>("POST", "/_sandbox/orders/seed", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["count", "status", "spreadSeconds", "referencePrefix", "workspace"]);
    const count = readInteger(r, body, "count", "count", { required: true, min: 1, max: 100_000 }) ?? 1;
    const status =
      readString(r, body, "status", "status", {
        pattern: /^(reserved|processing|fulfilled|failed|refunded)$/,
        patternMessage: "Must be an order status.",
      }) ?? "fulfilled";
    const spreadSeconds = readInteger(r, body, "spreadSeconds", "spreadSeconds", { min: 0, max: 10 * 365 * 86_400 }) ?? 86_400;
    const referencePrefix = readString(r, body, "referencePrefix", "referencePrefix", { max: 100 }) ?? "seed-";
    const workspaceId = readWorkspaceId(r, body);
    r.fail();
    const orders = seedOrders(ctx.sb, workspaceFor(ctx.sb.state, workspaceId), {
      count,
      status: status as OrderStatus,
      spreadSeconds,
      referencePrefix,
    });
    return { status: 201, json: { count: orders.length, ids: orders.map((o) => o.id) } };
  }),
  route<ControlHandler>("POST", "/_sandbox/orders/:orderId/refund", (ctx) => {
    const { ws, order } = orderFor(ctx);
    if (order.status !== "fulfilled")
      throw conflict("order_not_refundable", `Only fulfilled orders can be refunded; this one is ${order.status}.`, {
        status: order.status,
      });
    transition(ctx.sb, ws, order, "refunded");
    audit(ctx.sb, {
      workspaceId: ws.id,
      keyId: null,
      action: "order.refund",
      resourceId: order.id,
      correlationId: ctx.correlationId,
    });
    return { status: 200, json: orderView(order) };
  }),
  // Read-only: how many reveals the fulfillment endpoint served for an order (each new
  // Idempotency-Key counts one), so tests can compare the app's reveal records with it.
  route<ControlHandler>("GET", "/_sandbox/orders/:orderId/reveals", (ctx) => {
    const { ws, order } = orderFor(ctx);
    let idempotencyKeys = 0;
    for (const record of ws.revealKeys.values()) if (record.orderId === order.id) idempotencyKeys += 1;
    return { status: 200, json: { orderId: order.id, revealCount: order.revealCount, idempotencyKeys } };
  }),
  route<ControlHandler>("POST", "/_sandbox/orders/:orderId/fulfil", (ctx) => {
    const { ws, order } = orderFor(ctx);
    if (order.status === "reserved") transition(ctx.sb, ws, order, "processing");
    transition(ctx.sb, ws, order, "fulfilled");
    return { status: 200, json: orderView(order) };
  }),
  route<ControlHandler>("POST", "/_sandbox/orders/:orderId/fail", (ctx) => {
    const { ws, order } = orderFor(ctx);
    transition(ctx.sb, ws, order, "failed", "failed_by_control_plane");
    return { status: 200, json: orderView(order) };
  }),
];

function orderFor(ctx: ControlContext) {
  const found = findOrderAnywhere(ctx.sb, controlParam(ctx, "orderId"));
  if (!found) throw notFound(`Order ${controlParam(ctx, "orderId")} does not exist.`);
  return found;
}
