import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";
import { findProduct, inlineItem, isVariantGiftCard } from "./support/catalog";

const ALL_SCOPES = [
  "products.read",
  "quotes.create",
  "orders.create",
  "orders.read",
  "wallet.read",
  "wallet.deposit-address.write",
  "wallet.withdraw",
];

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function issueKey(body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await sb.control("POST", "/keys", body);
  expect(res.status).toBe(201);
  return res.body;
}

describe("API keys", () => {
  it("rejects a request without X-Api-Key with 401 unauthorized", async () => {
    await expectRefused(sb, () => sb.api("/products", { key: null }), 401, "unauthorized");
  });

  it("rejects malformed, unknown and wrong-secret keys with 401", async () => {
    const lookup = sb.apiKey.split("_")[1];
    for (const key of ["nonsense", "svckey_abcdefgh_ABCDEFGHIJKLMNOPQRSTUV", `svckey_${lookup}_WRONGWRONGWRONGWRONGWRONG`]) {
      await expectRefused(sb, () => sb.api("/products", { key }), 401, "unauthorized");
    }
  });

  it("issues keys of the svckey_<lookup>_<secret> shape that work at once", async () => {
    const { key } = await issueKey({ scopes: ["products.read"] });
    expect(key).toMatch(/^svckey_[a-z0-9]+_[A-Za-z0-9]+$/);
    expect((await sb.api("/products?limit=1", { key })).status).toBe(200);
  });

  it("stops accepting a key immediately after it is revoked", async () => {
    const { id, key } = await issueKey({ scopes: ["products.read"] });
    expect((await sb.api("/products?limit=1", { key })).status).toBe(200);
    expect((await sb.control("DELETE", `/keys/${id}`)).status).toBe(200);
    await expectRefused(sb, () => sb.api("/products?limit=1", { key }), 401, "unauthorized");
  });

  it("stops accepting a key once the sandbox clock passes its expiry", async () => {
    const clock = await sb.control("GET", "/clock");
    const expiresAtUtc = new Date(Date.parse(clock.body.nowUtc) + 3_600_000).toISOString();
    const { key } = await issueKey({ scopes: ["products.read"], expiresAtUtc });
    expect((await sb.api("/products?limit=1", { key })).status).toBe(200);
    await sb.control("POST", "/clock/advance", { seconds: 3_601 });
    await expectRefused(sb, () => sb.api("/products?limit=1", { key }), 401, "unauthorized");
  });

  it("answers 403 forbidden when the source address is outside the key's CIDR allow-list", async () => {
    const { key } = await issueKey({ scopes: ["products.read"], allowCidrs: ["10.0.0.0/8"] });
    await expectRefused(sb, () => sb.api("/products?limit=1", { key }), 403, "forbidden");
    const loopback = await issueKey({ scopes: ["products.read"], allowCidrs: ["10.0.0.0/8", "127.0.0.0/8"] });
    expect((await sb.api("/products?limit=1", { key: loopback.key })).status).toBe(200);
  });

  it("refuses to issue a key with an unknown scope or a malformed CIDR", async () => {
    const res = await expectRefused(
      sb,
      () => sb.control("POST", "/keys", { scopes: ["products.write"], allowCidrs: ["10.0.0.0/33"] }),
      400,
      "invalid_request",
    );
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(["scopes", "allowCidrs"]));
  });
});

describe("scopes", () => {
  const product = { id: "" };
  beforeAll(async () => {
    product.id = (await findProduct(sb, isVariantGiftCard)).id;
  });

  const endpoints: [string, string, string][] = [
    ["products.read", "GET", "/products"],
    ["products.read", "GET", "/products/prd_x"],
    ["products.read", "GET", "/catalog-product-images/img_x"],
    ["quotes.create", "POST", "/quotes"],
    ["orders.create", "POST", "/orders"],
    ["orders.read", "GET", "/orders"],
    ["orders.read", "GET", "/orders/ord_x"],
    ["orders.read", "POST", "/orders/ord_x/fulfillment"],
    ["wallet.read", "GET", "/wallet/balance?currency=USD"],
    ["wallet.read", "GET", "/wallet/deposits"],
    ["wallet.read", "GET", "/wallet/deposit-addresses/bsc-usd"],
    ["wallet.deposit-address.write", "PUT", "/wallet/deposit-addresses/bsc-usd"],
    ["wallet.read", "POST", "/withdrawals/quotes"],
    ["wallet.read", "GET", "/withdrawals?status=requested"],
    ["wallet.withdraw", "POST", "/withdrawals"],
    ["wallet.withdraw", "POST", "/withdrawals/wdr_x/cancellation"],
  ];

  it.each(endpoints)("requires %s for %s %s, before looking at the request", async (scope, method, path) => {
    const { key } = await issueKey({ scopes: ALL_SCOPES.filter((s) => s !== scope) });
    // The body is invalid on purpose: the scope must be checked first.
    await expectRefused(
      sb,
      () =>
        sb.api(path, {
          method,
          key,
          rawBody: method === "GET" ? undefined : "{not json",
          headers: { "Content-Type": "application/json" },
        }),
      403,
      "forbidden",
    );
  });

  it("keeps wallet.withdraw separate from wallet.read", async () => {
    const { key } = await issueKey({ scopes: ["wallet.read"] });
    expect((await sb.api("/wallet/balance?currency=USD", { key })).status).toBe(200);
    await expectRefused(sb, () => sb.api("/withdrawals", { key, body: { amount: 20, currency: "USD" } }), 403, "forbidden");
  });

  it("checks the key before the path: an unknown path without a key is 401, with a key 404", async () => {
    await expectRefused(sb, () => sb.api("/no-such-thing", { key: null }), 401, "unauthorized");
    await expectRefused(sb, () => sb.api("/no-such-thing"), 404, "not_found");
  });

  it("isolates workspaces: a key of another workspace cannot see this workspace's order", async () => {
    const { body: order } = await sb.api("/orders", {
      body: { item: inlineItem({ ...(await findProduct(sb, isVariantGiftCard)) }), clientReference: "ws-iso" },
      headers: { "Idempotency-Key": "ws-iso-1" },
    });
    const other = await issueKey({ scopes: ALL_SCOPES, workspace: "ws_other" });
    await expectRefused(sb, () => sb.api(`/orders/${order.id}`, { key: other.key }), 404, "not_found");
    expect((await sb.api(`/orders`, { key: other.key })).body.items).toEqual([]);
    expect((await sb.api(`/wallet/balance?currency=USD`, { key: other.key })).body.availableBalance).toBe(0);
  });
});

describe("correlation ids", () => {
  it("puts an X-Correlation-Id on every response, success or error", async () => {
    const responses = [
      await sb.api("/products?limit=1"),
      await sb.api("/products/nope"),
      await sb.api("/products", { key: null }),
      await sb.control("GET", "/health"),
    ];
    const ids = responses.map((r) => r.headers.get("x-correlation-id"));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
