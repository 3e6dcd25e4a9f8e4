import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";
import { allProducts, inlineItem, isTopUp, isVariantGiftCard } from "./support/catalog";
import { waitFor } from "./support/wait";

let sb: TestSandbox;
let products: Json[];
let giftCard: Json;
let keyNumber = 0;
beforeAll(async () => {
  sb = await startTestSandbox();
  products = await allProducts(sb);
  giftCard = products.find(isVariantGiftCard);
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.control("PUT", "/fulfilment", { mode: "auto", delayMs: 30, failRate: 0 });
});

const nextKey = () => `order-key-${++keyNumber}`;
const order = (body: Json, key: string | null = nextKey()) =>
  sb.api("/orders", { body, headers: key === null ? {} : { "Idempotency-Key": key } });
const usd = async () => (await sb.api("/wallet/balance?currency=USD")).body;
const cents = (n: number) => Math.round(n * 100);
const fulfilled = (id: string) =>
  waitFor(async () => {
    const res = await sb.api(`/orders/${id}`);
    return res.body.status === "fulfilled" && res.body;
  }, `order ${id} fulfilled`);

describe("POST /orders: Idempotency-Key", () => {
  it("requires the header: a missing key is 400 invalid_request", async () => {
    const res = await expectRefused(
      sb,
      () => order({ item: inlineItem(giftCard), clientReference: "no-key" }, null),
      400,
      "invalid_request",
    );
    expect(res.body.errors["Idempotency-Key"]).toBeDefined();
  });

  it.each([
    ["129 characters", "k".repeat(129)],
    ["non-ASCII characters", "clé-é"],
  ])("rejects a key of %s", async (_name, key) => {
    await expectRefused(sb, () => order({ item: inlineItem(giftCard), clientReference: "bad-key" }, key), 400, "invalid_request");
  });

  it("accepts a key of exactly 128 printable characters", async () => {
    expect((await order({ item: inlineItem(giftCard), clientReference: "long-key" }, `${"k".repeat(120)} !~#$%&*`)).status).toBe(
      202,
    );
  });

  it("returns the same order for the same key and body, and buys only once", async () => {
    const before = await usd();
    const key = nextKey();
    const body = { item: inlineItem(giftCard), clientReference: "same-key" };
    const first = await order(body, key);
    const second = await order({ clientReference: "same-key", item: inlineItem(giftCard) }, key); // key order does not matter
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.id).toBe(first.body.id);
    const list = await sb.api("/orders?clientReference=same-key");
    expect(list.body.items).toHaveLength(1);
    const after = await usd();
    expect(cents(before.availableBalance) - cents(after.availableBalance)).toBe(cents(first.body.total));
  });

  it("answers 409 idempotency_key_reuse when the same key comes with a different body", async () => {
    const key = nextKey();
    expect((await order({ item: inlineItem(giftCard), clientReference: "reuse-1" }, key)).status).toBe(202);
    await expectRefused(
      sb,
      () => order({ item: inlineItem(giftCard, 2), clientReference: "reuse-1" }, key),
      409,
      "idempotency_key_reuse",
    );
  });
});

describe("POST /orders: bodies", () => {
  it("accepts inline pricing: 202, Location, status reserved, lines and the reserved total", async () => {
    const res = await order({ item: inlineItem(giftCard, 2), clientReference: "inline-1" });
    expect(res.status).toBe(202);
    expect(res.headers.get("location")).toBe(`/api/v1/orders/${res.body.id}`);
    expect(res.body).toMatchObject({ clientReference: "inline-1", status: "reserved", currency: "USD" });
    expect(res.body.lines).toEqual([
      expect.objectContaining({
        productId: giftCard.id,
        variantId: giftCard.variants[0].id,
        productName: giftCard.name,
        variantLabel: giftCard.variants[0].displayValue,
        quantity: 2,
        unitPrice: giftCard.variants[0].price,
        currency: "USD",
      }),
    ]);
    expect(cents(res.body.total)).toBe(cents(giftCard.variants[0].price) * 2);
    expect(res.body.createdAtUtc).toMatch(/Z$/);
  });

  it("never prices above maximumTotal: 409 price_above_maximum carries the new price as quotedTotal", async () => {
    await sb.control("PUT", `/products/${giftCard.id}`, { priceFactor: 1.25 });
    try {
      const newPrice = (await sb.api(`/products/${giftCard.id}`)).body.variants[0].price;
      const res = await expectRefused(
        sb,
        () => order({ item: inlineItem(giftCard), clientReference: "max-1", maximumTotal: giftCard.variants[0].price }),
        409,
        "price_above_maximum",
      );
      expect(res.body.quotedTotal).toBe(newPrice);
      expect((await order({ item: inlineItem(giftCard), clientReference: "max-2", maximumTotal: newPrice })).status).toBe(202);
    } finally {
      await sb.control("PUT", `/products/${giftCard.id}`, { priceFactor: 1 });
    }
  });

  it("requires an E.164 purchaseInput.phoneNumber for phone top-ups", async () => {
    const topUp = products.find(isTopUp);
    const missing = await expectRefused(
      sb,
      () => order({ item: inlineItem(topUp), clientReference: "topup-1" }),
      400,
      "invalid_request",
    );
    expect(missing.body.errors["purchaseInput.phoneNumber"]).toBeDefined();
    const malformed = await order({
      item: inlineItem(topUp),
      clientReference: "topup-2",
      purchaseInput: { phoneNumber: "0044 20 7946 0958" },
    });
    expect(malformed.body.errors["purchaseInput.phoneNumber"]).toBeDefined();
    expect(
      (await order({ item: inlineItem(topUp), clientReference: "topup-3", purchaseInput: { phoneNumber: "+442079460958" } }))
        .status,
    ).toBe(202);
  });

  it.each([
    ["neither quoteId nor item", { clientReference: "x" }, "quoteId"],
    [
      "both quoteId and item",
      { quoteId: "quo_x", item: { productId: "p", variantId: "v", currency: "USD" }, clientReference: "x" },
      "quoteId",
    ],
    ["no clientReference", { quoteId: "quo_x" }, "clientReference"],
    ["a numeric clientReference", { quoteId: "quo_x", clientReference: 7 }, "clientReference"],
    ["an item that is not an object", { item: "prd_x", clientReference: "x" }, "item"],
    ["an item without currency", { item: { productId: "prd_x", variantId: "var_x" }, clientReference: "x" }, "item.currency"],
    ["a negative maximumTotal", { quoteId: "quo_x", clientReference: "x", maximumTotal: -1 }, "maximumTotal"],
    ["an unknown field", { quoteId: "quo_x", clientReference: "x", coupon: "FREE" }, "coupon"],
  ])("rejects %s with 400 invalid_request", async (_name, body, field) => {
    const res = await expectRefused(sb, () => order(body), 400, "invalid_request");
    expect(res.body.errors[field]).toBeDefined();
  });

  it("answers 409 insufficient_funds when the available balance does not cover the total", async () => {
    const before = await usd();
    await sb.control("PUT", "/wallet", { balances: { USD: 1 } });
    try {
      await expectRefused(sb, () => order({ item: inlineItem(giftCard), clientReference: "poor" }), 409, "insufficient_funds");
    } finally {
      await sb.control("PUT", "/wallet", { balances: { USD: before.availableBalance } });
    }
  });

  it("answers 409 product_unavailable for an inline item of an unavailable product", async () => {
    await sb.control("PUT", `/products/${giftCard.id}`, { isAvailable: false });
    try {
      await expectRefused(
        sb,
        () => order({ item: inlineItem(giftCard), clientReference: "unavail" }),
        409,
        "product_unavailable",
      );
    } finally {
      await sb.control("PUT", `/products/${giftCard.id}`, { isAvailable: true });
    }
  });
});

describe("order lifecycle", () => {
  it("reserves at creation, then processing, then fulfilled with the reservation captured", async () => {
    await waitFor(async () => (await usd()).reservedBalance === 0, "earlier orders to settle");
    await sb.control("PUT", "/fulfilment", { mode: "manual" });
    const before = await usd();
    const created = (await order({ item: inlineItem(giftCard), clientReference: "life-1" })).body;
    const reserved = await usd();
    expect(cents(reserved.reservedBalance) - cents(before.reservedBalance)).toBe(cents(created.total));
    expect(cents(before.availableBalance) - cents(reserved.availableBalance)).toBe(cents(created.total));
    expect((await sb.api(`/orders/${created.id}`)).body.status).toBe("reserved");
    await sb.control("POST", `/orders/${created.id}/fulfil`);
    const after = await usd();
    expect(cents(after.reservedBalance)).toBe(cents(before.reservedBalance));
    expect(cents(before.totalBalance) - cents(after.totalBalance)).toBe(cents(created.total));
    const types = (await sb.control("GET", "/events")).body.items
      .filter((e: Json) => e.envelope.data.orderId === created.id)
      .map((e: Json) => e.envelope.type);
    expect(types).toEqual(["order.processing", "order.fulfilled"]);
  });

  it("fulfils automatically after the configured delay", async () => {
    const created = (await order({ item: inlineItem(giftCard), clientReference: "auto-1" })).body;
    const done = await fulfilled(created.id);
    expect(Date.parse(done.updatedAtUtc)).toBeGreaterThan(Date.parse(done.createdAtUtc));
  });

  it("fails the configured share of orders and releases their reservation", async () => {
    await waitFor(async () => (await usd()).reservedBalance === 0, "earlier orders to settle");
    await sb.control("PUT", "/fulfilment", { failRate: 1, delayMs: 10 });
    const before = await usd();
    const created = (await order({ item: inlineItem(giftCard), clientReference: "fail-1" })).body;
    await waitFor(async () => (await sb.api(`/orders/${created.id}`)).body.status === "failed", "order failed");
    const after = await usd();
    expect(after.availableBalance).toBe(before.availableBalance);
    expect(after.reservedBalance).toBe(before.reservedBalance);
    const events = (await sb.control("GET", "/events?type=order.failed")).body.items;
    expect(events.some((e: Json) => e.envelope.data.orderId === created.id)).toBe(true);
  });

  it("refunds a fulfilled order back to the available balance, with order.refunded and no wallet.credited", async () => {
    const created = (await order({ item: inlineItem(giftCard), clientReference: "refund-1" })).body;
    await fulfilled(created.id);
    const before = await usd();
    const credited = (await sb.control("GET", "/events?type=wallet.credited")).body.items.length;
    const res = await sb.control("POST", `/orders/${created.id}/refund`);
    expect(res.body.status).toBe("refunded");
    expect((await sb.api(`/orders/${created.id}`)).body.status).toBe("refunded");
    const after = await usd();
    expect(cents(after.availableBalance) - cents(before.availableBalance)).toBe(cents(created.total));
    expect(
      (await sb.control("GET", "/events?type=order.refunded")).body.items.some(
        (e: Json) => e.envelope.data.orderId === created.id,
      ),
    ).toBe(true);
    expect((await sb.control("GET", "/events?type=wallet.credited")).body.items.length).toBe(credited);
    await expectRefused(sb, () => sb.control("POST", `/orders/${created.id}/refund`), 409, "order_not_refundable");
  });

  it("answers 404 not_found for an unknown order", async () => {
    await expectRefused(sb, () => sb.api("/orders/ord_unknown"), 404, "not_found");
  });
});

describe("POST /orders/{id}/fulfillment (reveal)", () => {
  const reveal = (id: string, key: string | null) =>
    sb.api(`/orders/${id}/fulfillment`, { method: "POST", headers: key === null ? {} : { "Idempotency-Key": key } });

  it("answers 409 order_not_fulfilled until the order is fulfilled", async () => {
    await sb.control("PUT", "/fulfilment", { mode: "manual" });
    const created = (await order({ item: inlineItem(giftCard), clientReference: "reveal-early" })).body;
    await expectRefused(sb, () => reveal(created.id, "reveal-early-1"), 409, "order_not_fulfilled");
    await sb.control("POST", `/orders/${created.id}/fail`);
    await expectRefused(sb, () => reveal(created.id, "reveal-early-2"), 409, "order_not_fulfilled");
  });

  it("reveals artifacts with Cache-Control no-store, counting each new key once", async () => {
    const created = (await order({ item: inlineItem(giftCard, 2), clientReference: "reveal-1" })).body;
    await fulfilled(created.id);
    const first = await reveal(created.id, "reveal-1-a");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body).toMatchObject({ orderId: created.id, revealCount: 1 });
    const codes = first.body.artifacts.filter((a: Json) => a.type === "code");
    expect(codes).toHaveLength(2);
    for (const a of first.body.artifacts) expect(typeof a.value).toBe("string");
    const retry = await reveal(created.id, "reveal-1-a");
    expect(retry.body.revealCount).toBe(1);
    expect(retry.body.artifacts).toEqual(first.body.artifacts);
    expect((await reveal(created.id, "reveal-1-b")).body.revealCount).toBe(2);
    const audit = (await sb.control("GET", "/audit")).body.items.filter(
      (e: Json) => e.action === "order.reveal" && e.resourceId === created.id,
    );
    expect(audit).toHaveLength(2);
  });

  it("tells the control plane how many reveals it served for an order, and nothing else", async () => {
    const created = (await order({ item: inlineItem(giftCard), clientReference: "reveal-count" })).body;
    await fulfilled(created.id);
    expect((await sb.control("GET", `/orders/${created.id}/reveals`)).body).toEqual({
      orderId: created.id,
      revealCount: 0,
      idempotencyKeys: 0,
    });
    await reveal(created.id, "reveal-count-a");
    await reveal(created.id, "reveal-count-a");
    await reveal(created.id, "reveal-count-b");
    const counted = await sb.control("GET", `/orders/${created.id}/reveals`);
    expect(counted.body).toEqual({ orderId: created.id, revealCount: 2, idempotencyKeys: 2 });
    expect(counted.text).not.toContain("artifacts");
    expect((await sb.control("GET", "/orders/ord_unknown/reveals")).status).toBe(404);
  });

  it("never shows artifacts in order bodies, lists or webhook payloads", async () => {
    const created = (await order({ item: inlineItem(giftCard), clientReference: "secret-1" })).body;
    await fulfilled(created.id);
    const values: string[] = (await reveal(created.id, "secret-1-a")).body.artifacts.map((a: Json) => a.value);
    // A reveal without artifacts would leave nothing to look for below.
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value.length).toBeGreaterThan(4);
    const texts = [
      (await sb.api(`/orders/${created.id}`)).text,
      (await sb.api("/orders?limit=100")).text,
      (await sb.control("GET", "/events")).text,
    ];
    for (const text of texts) for (const value of values) expect(text).not.toContain(value);
  });

  it("requires an Idempotency-Key and refuses one already used for another order", async () => {
    const a = (await order({ item: inlineItem(giftCard), clientReference: "reveal-k1" })).body;
    const b = (await order({ item: inlineItem(giftCard), clientReference: "reveal-k2" })).body;
    await Promise.all([fulfilled(a.id), fulfilled(b.id)]);
    await expectRefused(sb, () => reveal(a.id, null), 400, "invalid_request");
    expect((await reveal(a.id, "shared-reveal-key")).status).toBe(200);
    await expectRefused(sb, () => reveal(b.id, "shared-reveal-key"), 409, "idempotency_key_reuse");
    await expectRefused(sb, () => reveal("ord_unknown", "whatever"), 404, "not_found");
  });

  it("issues claim links for eSIMs", async () => {
    const esim = products.find((p) => p.type === "esim" && p.isAvailable && p.currency === "USD");
    const created = (await order({ item: inlineItem(esim), clientReference: "esim-1" })).body;
    await fulfilled(created.id);
    const types = (await reveal(created.id, "esim-1")).body.artifacts.map((a: Json) => a.type);
    expect(types).toContain("claim-url");
  });
});

describe("GET /orders", () => {
  it("lists newest first with cursor pages, and filters by status and clientReference", async () => {
    await sb.control("PUT", "/fulfilment", { mode: "manual" });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await order({ item: inlineItem(giftCard), clientReference: "list-batch" })).body.id);
    const page1 = await sb.api("/orders?clientReference=list-batch&limit=2");
    expect(page1.body.items.map((o: Json) => o.id)).toEqual([ids[4], ids[3]]);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await sb.api(`/orders?clientReference=list-batch&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items.map((o: Json) => o.id)).toEqual([ids[2], ids[1]]);
    const page3 = await sb.api(`/orders?clientReference=list-batch&limit=2&cursor=${page2.body.nextCursor}`);
    expect(page3.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(page3.body.items.map((o: Json) => o.id)).toEqual([ids[0]]);
    await sb.control("POST", `/orders/${ids[0]}/fulfil`);
    const fulfilledOnly = await sb.api("/orders?clientReference=list-batch&status=fulfilled");
    expect(fulfilledOnly.body.items.map((o: Json) => o.id)).toEqual([ids[0]]);
    expect((await sb.api("/orders?clientReference=list-batch&status=reserved,fulfilled")).body.items).toHaveLength(5);
  });

  it("filters by creation time", async () => {
    const created = (await order({ item: inlineItem(giftCard), clientReference: "time-1" })).body;
    const from = encodeURIComponent(created.createdAtUtc);
    expect((await sb.api(`/orders?createdFromUtc=${from}&clientReference=time-1`)).body.items).toHaveLength(1);
    expect((await sb.api(`/orders?createdToUtc=${from}&clientReference=time-1`)).body.items).toHaveLength(0);
  });

  it.each(["status=shipped", "limit=0", "cursor=garbage", "createdFromUtc=yesterday"])("rejects %s with 400", async (query) => {
    await expectRefused(sb, () => sb.api(`/orders?${query}`), 400, "invalid_request");
  });
});
