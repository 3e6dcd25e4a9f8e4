import { audit } from "./audit";
import type { Sandbox } from "./context";
import { newId } from "./ids";
import type { Authenticated } from "./keys";
import { toAmount } from "./money";
import { priceItem, readItem, ITEM_FIELDS, type ItemInput } from "./pricing";
import { conflict, invalidRequest, notFound } from "./problem";
import { isAvailable } from "./product-view";
import type { Order, OrderLine, Workspace } from "./state";
import { canonicalJson, createReader, isObject, readAmount, readString, rejectUnknown, requireObjectBody } from "./validate";
import { reserveForOrder } from "./wallet";

// POST /orders. Everything after the body is parsed runs synchronously, so the idempotency check, the funds
// check and the reservation are one atomic step even under many concurrent requests.

type OrderInput = {
  quoteId: string | null;
  item: ItemInput | null;
  clientReference: string;
  maximumTotalCents: number | null;
  phoneNumber: string | null;
};

const E164 = /^\+[1-9]\d{6,14}$/;

export function placeOrder(
  sb: Sandbox,
  auth: Authenticated,
  idempotencyKey: string,
  body: unknown,
  correlationId: string,
): { order: Order; replayed: boolean } {
  const ws = auth.workspace;
  const fingerprint = canonicalJson(body);
  const previous = ws.orderKeys.get(idempotencyKey);
  if (previous) {
    const order = ws.orders.get(previous.orderId);
    if (previous.fingerprint !== fingerprint) {
      throw conflict("idempotency_key_reuse", "This Idempotency-Key was already used with a different request body.", {
        orderId: previous.orderId,
      });
    }
    if (order) return { order, replayed: true };
  }
  const input = readOrderInput(body);
  const { line, quoteId } =
    input.quoteId !== null
      ? lineFromQuote(sb, ws, input.quoteId)
      : { line: priceItem(sb, input.item as ItemInput, "item.").line, quoteId: null };
  if (line.productType === "phone-top-up" && input.phoneNumber === null) {
    throw invalidRequest("A phone-top-up order needs purchaseInput.phoneNumber.", {
      "purchaseInput.phoneNumber": ["Is required for phone top-ups."],
    });
  }
  const totalCents = line.unitCents * line.quantity;
  if (input.maximumTotalCents !== null && totalCents > input.maximumTotalCents) {
    throw conflict("price_above_maximum", "The price at order time exceeds maximumTotal.", {
      quotedTotal: toAmount(totalCents),
      maximumTotal: toAmount(input.maximumTotalCents),
      currency: line.currency,
    });
  }
  const now = sb.clock.now();
  reserveForOrder(ws, line.currency, totalCents, now);
  ws.orderSeq += 1;
  const order: Order = {
    id: newId("ord"),
    seq: ws.orderSeq,
    clientReference: input.clientReference,
    status: "reserved",
    totalCents,
    currency: line.currency,
    lines: [line],
    quoteId,
    createdAtMs: now,
    updatedAtMs: now,
    createdByKeyId: auth.key.id,
    artifacts: null,
    revealCount: 0,
    failureReason: null,
  };
  ws.orders.set(order.id, order);
  ws.orderKeys.set(idempotencyKey, { fingerprint, orderId: order.id, createdAtMs: now });
  if (quoteId !== null) {
    const quote = ws.quotes.get(quoteId);
    if (quote) quote.usedByOrderId = order.id;
  }
  audit(sb, {
    workspaceId: ws.id,
    keyId: auth.key.id,
    action: "order.create",
    resourceId: order.id,
    correlationId,
    details: { total: toAmount(totalCents), currency: order.currency },
  });
  sb.changed();
  sb.onOrderCreated(ws.id, order.id);
  return { order, replayed: false };
}

function readOrderInput(body: unknown): OrderInput {
  const obj = requireObjectBody(body);
  const r = createReader();
  rejectUnknown(r, obj, ["quoteId", "item", "clientReference", "maximumTotal", "purchaseInput"]);
  const quoteId = readString(r, obj, "quoteId", "quoteId", { max: 100 }) ?? null;
  let item: ItemInput | null = null;
  if (obj.item !== undefined && obj.item !== null) {
    if (!isObject(obj.item)) r.add("item", "Must be an object.");
    else {
      rejectUnknown(r, obj.item, ITEM_FIELDS, "item.");
      item = readItem(r, obj.item, "item.") ?? null;
    }
  }
  const hasItem = obj.item !== undefined && obj.item !== null;
  if (quoteId !== null && hasItem) r.add("quoteId", "Send either quoteId or item, not both.");
  if (obj.quoteId == null && !hasItem) r.add("quoteId", "Either quoteId or item is required.");
  const clientReference = readString(r, obj, "clientReference", "clientReference", { required: true, max: 128 });
  const maximumTotalCents = readAmount(r, obj, "maximumTotal", "maximumTotal") ?? null;
  let phoneNumber: string | null = null;
  if (obj.purchaseInput !== undefined && obj.purchaseInput !== null) {
    if (!isObject(obj.purchaseInput)) r.add("purchaseInput", "Must be an object.");
    else {
      rejectUnknown(r, obj.purchaseInput, ["phoneNumber"], "purchaseInput.");
      phoneNumber =
        readString(r, obj.purchaseInput, "phoneNumber", "purchaseInput.phoneNumber", {
          pattern: E164,
          patternMessage: "Must be an E.164 number such as +14155550123.",
        }) ?? null;
    }
  }
  r.fail();
  return { quoteId, item, clientReference: clientReference ?? "", maximumTotalCents, phoneNumber };
}

function lineFromQuote(sb: Sandbox, ws: Workspace, quoteId: string): { line: OrderLine; quoteId: string } {
  const quote = ws.quotes.get(quoteId);
  if (!quote) throw notFound(`Quote ${quoteId} does not exist in this workspace.`);
  if (quote.usedByOrderId !== null)
    throw conflict("quote_used", "This quote was already used by another order.", { quoteId, orderId: quote.usedByOrderId });
  if (sb.clock.now() >= quote.expiresAtMs)
    throw conflict("quote_expired", "This quote has expired; request a new one.", {
      quoteId,
      expiresAtUtc: new Date(quote.expiresAtMs).toISOString(),
    });
  const product = sb.catalog.byId.get(quote.productId);
  if (!product || !isAvailable(sb.state, product)) {
    throw conflict("product_unavailable", `Product ${quote.productId} is not available at the moment.`, {
      productId: quote.productId,
    });
  }
  return { line: { ...quote.line }, quoteId };
}

export function findOrder(ws: Workspace, orderId: string): Order {
  const order = ws.orders.get(orderId);
  if (!order) throw notFound(`Order ${orderId} does not exist in this workspace.`);
  return order;
}
