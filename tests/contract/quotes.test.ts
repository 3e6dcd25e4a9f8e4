import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";
import { allProducts, isValueGiftCard, isVariantGiftCard } from "./support/catalog";

let sb: TestSandbox;
let products: Json[];
let variantProduct: Json;
let valueProduct: Json;
beforeAll(async () => {
  sb = await startTestSandbox({ quoteTtlSeconds: 120 });
  products = await allProducts(sb);
  variantProduct = products.find(isVariantGiftCard);
  valueProduct = products.find(isValueGiftCard);
});
afterAll(() => sb.close());

const cents = (n: number) => Math.round(n * 100);
let orderNumber = 0;
const orderFromQuote = (quoteId: string) =>
  sb.api("/orders", {
    body: { quoteId, clientReference: `q-${++orderNumber}` },
    headers: { "Idempotency-Key": `quote-order-${orderNumber}` },
  });

describe("POST /quotes", () => {
  it("prices a variant: total is the variant price times the quantity, in the sell currency", async () => {
    const variant = variantProduct.variants[1];
    const res = await sb.api("/quotes", {
      body: { productId: variantProduct.id, variantId: variant.id, quantity: 3, currency: "USD" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ productId: variantProduct.id, variantId: variant.id, quantity: 3, currency: "USD" });
    expect(cents(res.body.total)).toBe(cents(variant.price) * 3);
    expect(Date.parse(res.body.expiresAtUtc) - Date.parse(res.body.createdAtUtc)).toBe(120_000);
  });

  it("prices a value on the product's grid and returns the final price", async () => {
    const value = valueProduct.minimumValue + valueProduct.valueStep * 2;
    const res = await sb.api("/quotes", { body: { productId: valueProduct.id, value, quantity: 2, currency: "USD" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ variantId: null, value, quantity: 2 });
    expect(res.body.total).toBeGreaterThan(0);
    expect(cents(res.body.total)).toBe(cents(res.body.unitPrice) * 2);
  });

  it("defaults the quantity to 1", async () => {
    const res = await sb.api("/quotes", {
      body: { productId: variantProduct.id, variantId: variantProduct.variants[0].id, currency: "USD" },
    });
    expect(res.body.quantity).toBe(1);
  });

  const bad: [string, () => Json, string][] = [
    [
      "another currency",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, currency: "EUR" }),
      "currency",
    ],
    [
      "a lower-case currency",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, currency: "usd" }),
      "currency",
    ],
    ["no currency", () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id }), "currency"],
    [
      "a variant of another product",
      () => ({
        productId: variantProduct.id,
        variantId: products.find((p) => p.variants.length && p.id !== variantProduct.id).variants[0].id,
        currency: "USD",
      }),
      "variantId",
    ],
    ["no variant for a variant product", () => ({ productId: variantProduct.id, currency: "USD" }), "variantId"],
    [
      "a value for a variant product",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, value: 10, currency: "USD" }),
      "value",
    ],
    [
      "an off-grid value",
      () => ({ productId: valueProduct.id, value: valueProduct.minimumValue + valueProduct.valueStep / 2, currency: "USD" }),
      "value",
    ],
    [
      "a value below the minimum",
      () => ({ productId: valueProduct.id, value: valueProduct.minimumValue - valueProduct.valueStep, currency: "USD" }),
      "value",
    ],
    [
      "a value above the maximum",
      () => ({ productId: valueProduct.id, value: valueProduct.maximumValue + valueProduct.valueStep, currency: "USD" }),
      "value",
    ],
    ["a value with three decimals", () => ({ productId: valueProduct.id, value: 10.005, currency: "USD" }), "value"],
    ["no value for a value product", () => ({ productId: valueProduct.id, currency: "USD" }), "value"],
    [
      "a variant for a value product",
      () => ({ productId: valueProduct.id, variantId: "var_x", value: valueProduct.minimumValue, currency: "USD" }),
      "variantId",
    ],
    [
      "quantity 0",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, quantity: 0, currency: "USD" }),
      "quantity",
    ],
    [
      "a fractional quantity",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, quantity: 1.5, currency: "USD" }),
      "quantity",
    ],
    [
      "a quantity as a string",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, quantity: "2", currency: "USD" }),
      "quantity",
    ],
    [
      "a quantity above 100",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, quantity: 101, currency: "USD" }),
      "quantity",
    ],
    ["no productId", () => ({ variantId: "var_x", currency: "USD" }), "productId"],
    ["a numeric productId", () => ({ productId: 42, currency: "USD" }), "productId"],
    [
      "an unknown field",
      () => ({ productId: variantProduct.id, variantId: variantProduct.variants[0].id, currency: "USD", discount: 5 }),
      "discount",
    ],
  ];

  it.each(bad)("rejects %s with 400 invalid_request naming the field", async (_name, body, field) => {
    const res = await expectRefused(sb, () => sb.api("/quotes", { body: body() }), 400, "invalid_request");
    expect(res.body.errors[field]).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it("answers 404 not_found for a product outside the catalog", async () => {
    await expectRefused(
      sb,
      () => sb.api("/quotes", { body: { productId: "prd_nope", variantId: "var_x", currency: "USD" } }),
      404,
      "not_found",
    );
  });

  it("re-checks availability: an unavailable product gives 409 product_unavailable", async () => {
    const unavailable = products.find((p) => !p.isAvailable);
    const body = unavailable.variants.length
      ? { productId: unavailable.id, variantId: unavailable.variants[0].id, currency: unavailable.currency }
      : { productId: unavailable.id, value: unavailable.minimumValue, currency: unavailable.currency };
    await expectRefused(sb, () => sb.api("/quotes", { body }), 409, "product_unavailable");
    await sb.control("PUT", `/products/${variantProduct.id}`, { isAvailable: false });
    try {
      await expectRefused(
        sb,
        () =>
          sb.api("/quotes", {
            body: { productId: variantProduct.id, variantId: variantProduct.variants[0].id, currency: "USD" },
          }),
        409,
        "product_unavailable",
      );
    } finally {
      await sb.control("PUT", `/products/${variantProduct.id}`, { isAvailable: true });
    }
  });
});

describe("ordering from a quote", () => {
  const quote = async () =>
    (
      await sb.api("/quotes", {
        body: { productId: variantProduct.id, variantId: variantProduct.variants[0].id, quantity: 2, currency: "USD" },
      })
    ).body;

  it("debits exactly the quote total, even when the price changed after quoting", async () => {
    const q = await quote();
    await sb.control("PUT", `/products/${variantProduct.id}`, { priceFactor: 1.5 });
    try {
      const res = await orderFromQuote(q.id);
      expect(res.status).toBe(202);
      expect(res.body.total).toBe(q.total);
    } finally {
      await sb.control("PUT", `/products/${variantProduct.id}`, { priceFactor: 1 });
    }
  });

  it("refuses a used quote with 409 quote_used", async () => {
    const q = await quote();
    expect((await orderFromQuote(q.id)).status).toBe(202);
    await expectRefused(sb, () => orderFromQuote(q.id), 409, "quote_used");
  });

  it("refuses a quote once the sandbox clock passes its expiry with 409 quote_expired", async () => {
    const q = await quote();
    await sb.control("POST", "/clock/advance", { seconds: 121 });
    await expectRefused(sb, () => orderFromQuote(q.id), 409, "quote_expired");
  });

  it("refuses a quote whose product became unavailable with 409 product_unavailable", async () => {
    const q = await quote();
    await sb.control("PUT", `/products/${variantProduct.id}`, { isAvailable: false });
    try {
      await expectRefused(sb, () => orderFromQuote(q.id), 409, "product_unavailable");
    } finally {
      await sb.control("PUT", `/products/${variantProduct.id}`, { isAvailable: true });
    }
  });

  it("answers 404 not_found for an unknown quote", async () => {
    await expectRefused(sb, () => orderFromQuote("quo_unknown"), 404, "not_found");
  });
});
