import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../sandbox/server";
import { startTestSandbox, type TestSandbox } from "./support/client";
import { expectRefused, expectStateUnchanged } from "./support/state";
import { findProduct, isVariantGiftCard } from "./support/catalog";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const POSTS: [string, Record<string, string>][] = [
  ["/quotes", {}],
  ["/orders", { "Idempotency-Key": "bad-input" }],
  ["/withdrawals/quotes", {}],
  ["/withdrawals", {}],
];

describe("bad input never yields a 5xx", () => {
  it.each(POSTS)("POST %s with malformed JSON is 400 invalid_request", async (path, headers) => {
    const res = await expectRefused(
      sb,
      () =>
        sb.api(path, {
          method: "POST",
          rawBody: '{"productId": "x",',
          headers: { ...headers, "Content-Type": "application/json" },
        }),
      400,
      "invalid_request",
    );
    expect(res.body.errors.body).toBeDefined();
  });

  it.each(POSTS)("POST %s with a JSON body that is not an object is 400", async (path, headers) => {
    for (const raw of ["[]", '"text"', "null", "42"]) {
      await expectRefused(
        sb,
        () => sb.api(path, { method: "POST", rawBody: raw, headers: { ...headers, "Content-Type": "application/json" } }),
        400,
        "invalid_request",
      );
    }
  });

  it.each(POSTS)("POST %s without a body is 400", async (path, headers) => {
    await expectRefused(sb, () => sb.api(path, { method: "POST", headers }), 400, "invalid_request");
  });

  it("refuses a JSON body sent with another content type", async () => {
    const res = await expectRefused(
      sb,
      () => sb.api("/quotes", { method: "POST", rawBody: "{}", headers: { "Content-Type": "text/plain" } }),
      400,
      "invalid_request",
    );
    expect(res.body.errors["Content-Type"]).toBeDefined();
  });

  it("refuses a body over 64 KiB with 400 and keeps serving", async () => {
    const res = await expectRefused(
      sb,
      () => sb.api("/quotes", { body: { productId: "x".repeat(70 * 1024), currency: "USD" } }),
      400,
      "invalid_request",
    );
    expect(res.body.errors.body).toBeDefined();
    expect((await sb.api("/products?limit=1")).status).toBe(200);
  });

  it("refuses a chunked body that grows past the limit", async () => {
    const url = new URL(`${sb.baseUrl}/api/v1/quotes`);
    const status = await expectStateUnchanged(
      sb,
      () =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            url,
            {
              method: "POST",
              headers: { "X-Api-Key": sb.apiKey, "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", reject);
          for (let i = 0; i < 20; i++) req.write(" ".repeat(8 * 1024));
          req.end("{}");
        }),
    );
    expect(status).toBe(400);
  });

  it("answers wrong types in every field with a 400 listing each field", async () => {
    const body = {
      item: { productId: 1, variantId: 2, value: "3", quantity: "4", currency: 5 },
      clientReference: [],
      maximumTotal: "9",
      purchaseInput: { phoneNumber: 1 },
    };
    const res = await expectRefused(
      sb,
      () => sb.api("/orders", { body, headers: { "Idempotency-Key": "types" } }),
      400,
      "invalid_request",
    );
    expect(Object.keys(res.body.errors).sort()).toEqual(
      [
        "clientReference",
        "item.currency",
        "item.productId",
        "item.quantity",
        "item.value",
        "item.variantId",
        "maximumTotal",
        "purchaseInput.phoneNumber",
      ].sort(),
    );
  });

  it("answers unknown paths with 404 and wrong methods with 405, as problem documents", async () => {
    await expectRefused(sb, () => sb.api("/orders/ord_x/cancel", { method: "POST" }), 404, "not_found");
    const wrongMethod = await expectRefused(sb, () => sb.api("/products", { method: "DELETE" }), 405, "method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    await expectRefused(sb, () => sb.api("/../../etc/passwd"), 404, "not_found");
    await expectRefused(sb, () => sb.api("/orders/%E0%A4%A"), 404, "not_found");
    const outside = await expectStateUnchanged(sb, () => fetch(`${sb.baseUrl}/favicon.ico`));
    expect(outside.status).toBe(404);
  });

  it("survives a burst of random bodies on every POST endpoint", async () => {
    const product = await findProduct(sb, isVariantGiftCard);
    const samples: unknown[] = [
      {},
      { productId: product.id },
      { productId: product.id, variantId: null, value: 1e308, currency: "USD" },
      { productId: product.id, quantity: -1e9 },
      { item: {} },
      { item: null, quoteId: null },
      { quoteId: {} },
      { amount: Number.MAX_SAFE_INTEGER, currency: "USD" },
      { amount: 1e21, currency: "USD" },
      { amount: 0.1 + 0.2, currency: "USD" },
      { __proto__: { polluted: true } },
      { constructor: { prototype: {} } },
      { productId: "\u0000\uffff", currency: "\u00e9\u00e9\u00e9" },
      {
        item: { productId: product.id, variantId: product.variants[0].id, quantity: 1, currency: "USD" },
        clientReference: "x".repeat(10_000),
      },
    ];
    const random = () => {
      const pool = [null, true, 0, -1, 1.5, 1e-7, "", "x", [], {}, [1, "a"], { a: { b: {} } }];
      const body: Record<string, unknown> = {};
      for (const field of [
        "productId",
        "variantId",
        "value",
        "quantity",
        "currency",
        "quoteId",
        "item",
        "clientReference",
        "maximumTotal",
        "purchaseInput",
        "amount",
      ]) {
        if (Math.random() < 0.5) body[field] = pool[Math.floor(Math.random() * pool.length)];
      }
      return body;
    };
    for (let i = 0; i < 60; i++) samples.push(random());
    for (const [path, headers] of POSTS) {
      for (const [i, body] of samples.entries()) {
        const send = () =>
          sb.api(path, {
            body,
            headers: { ...headers, ...(headers["Idempotency-Key"] ? { "Idempotency-Key": `fuzz-${i}` } : {}) },
          });
        const res = await expectStateUnchanged(sb, send, (r) => r.status >= 400);
        expect(res.status, `${path} ${JSON.stringify(body)} → ${res.text}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.headers.get("content-type")).toContain("application/problem+json");
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await sb.control("GET", "/health")).status).toBe(200);
  });

  it("answers bytes that are not HTTP with a 400 problem document", async () => {
    const { hostname, port } = new URL(sb.baseUrl);
    const answer = await expectStateUnchanged(
      sb,
      () =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
          let text = "";
          socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
          socket.on("end", () => resolve(text));
          socket.on("error", reject);
        }),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/x-correlation-id: [0-9a-f-]{36}/i);
    expect(answer).toContain('"code":"invalid_request"');
  });

  it("answers malformed control-plane bodies with 400 too", async () => {
    const res = await expectStateUnchanged(sb, () =>
      fetch(`${sb.baseUrl}/_sandbox/keys`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{oops" }),
    );
    expect(res.status).toBe(400);
    await expectRefused(sb, () => sb.control("POST", "/clock/advance", { seconds: "ten" }), 400, "invalid_request");
    await expectRefused(sb, () => sb.control("GET", "/nothing-here"), 404, "not_found");
  });
});

describe("start-up guards", () => {
  it("refuses plain HTTP on a non-loopback address", async () => {
    await expect(startSandbox({ host: "0.0.0.0", port: 0, log: () => {} })).rejects.toThrow(/TLS/);
  });

  it("refuses a SANDBOX_API_KEY that is not svckey_<lookup>_<secret>", async () => {
    await expect(startSandbox({ apiKey: "dev-key", port: 0, log: () => {} })).rejects.toThrow(/svckey_/);
  });
});
