import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestSandbox, type Json, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";
import { findProduct, inlineItem, isVariantGiftCard } from "./support/catalog";
import { waitFor } from "./support/wait";

let sb: TestSandbox;
let product: Json;
beforeAll(async () => {
  sb = await startTestSandbox();
  product = await findProduct(sb, isVariantGiftCard);
});
afterAll(() => sb.close());
beforeEach(async () => {
  await sb.control("DELETE", "/faults");
});

const cents = (n: number) => Math.round(n * 100);
const usd = async () => (await sb.api("/wallet/balance?currency=USD")).body;
const placeOrder = (ref: string, key: string) =>
  sb.api("/orders", { body: { item: inlineItem(product), clientReference: ref }, headers: { "Idempotency-Key": key } });

describe("injected faults", () => {
  it("drops the response after commit: the retry with the same key returns the one order that exists", async () => {
    const before = await usd();
    await sb.control("PUT", "/faults", {
      dropResponseAfterCommitRate: 1,
      methods: ["POST"],
      pathPrefix: "/api/v1/orders",
      maxFaults: 1,
    });
    await expect(placeOrder("dropped-1", "dropped-key-1")).rejects.toThrow();
    const orders = (await sb.api("/orders?clientReference=dropped-1")).body.items;
    expect(orders).toHaveLength(1); // committed although the caller never heard
    const retry = await placeOrder("dropped-1", "dropped-key-1");
    expect(retry.status).toBe(202);
    expect(retry.body.id).toBe(orders[0].id);
    expect((await sb.api("/orders?clientReference=dropped-1")).body.items).toHaveLength(1);
    await waitFor(async () => (await usd()).reservedBalance === 0, "the order to settle");
    expect(cents(before.availableBalance) - cents((await usd()).availableBalance)).toBe(cents(retry.body.total)); // debited once
  });

  it("answers 503 for errorRate without processing anything", async () => {
    await sb.control("PUT", "/faults", { errorRate: 1, maxFaults: 1 });
    await expectRefused(sb, () => placeOrder("errored-1", "errored-key-1"), 503, "service_unavailable");
    expect((await sb.api("/orders?clientReference=errored-1")).body.items).toHaveLength(0);
    expect((await placeOrder("errored-1", "errored-key-1")).status).toBe(202);
  });

  it("answers 429 with the Retry-After asked for (rateLimitedRate) without processing anything", async () => {
    const before = (await sb.control("GET", "/rate-limit")).body.rateLimitedSinceStart as number;
    await sb.control("PUT", "/faults", { rateLimitedRate: 1, retryAfterSeconds: 7, maxFaults: 1 });
    const res = await expectRefused(sb, () => placeOrder("limited-1", "limited-key-1"), 429, "rate_limited");
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.body.retryAfterSeconds).toBe(7);
    expect((await sb.control("GET", "/rate-limit")).body.rateLimitedSinceStart).toBe(before + 1);
    expect((await sb.api("/orders?clientReference=limited-1")).body.items).toHaveLength(0);
    expect((await placeOrder("limited-1", "limited-key-1")).status).toBe(202);
  });

  it("holds the response past the client's timeout without processing, then answers 504", async () => {
    await sb.control("PUT", "/faults", { timeoutRate: 1, timeoutMs: 400, methods: ["POST"] });
    await expect(
      sb.api("/orders", {
        body: { item: inlineItem(product), clientReference: "timeout-1" },
        headers: { "Idempotency-Key": "timeout-key-1" },
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toThrow();
    await expectRefused(sb, () => placeOrder("timeout-1", "timeout-key-2"), 504, "gateway_timeout");
    expect((await sb.api("/orders?clientReference=timeout-1")).body.items).toHaveLength(0);
  });

  it("adds latencyMs to matching requests", async () => {
    await sb.control("PUT", "/faults", { latencyMs: 150, methods: ["GET"] });
    const started = Date.now();
    expect((await sb.api("/products?limit=1")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("never applies faults to the control plane", async () => {
    await sb.control("PUT", "/faults", { errorRate: 1 });
    for (let i = 0; i < 5; i++) expect((await sb.control("GET", "/health")).status).toBe(200);
    await expectRefused(sb, () => sb.api("/products?limit=1"), 503, "service_unavailable");
  });

  it("rejects fault settings out of range", async () => {
    const res = await expectRefused(
      sb,
      () => sb.control("PUT", "/faults", { errorRate: 2, latencyMs: -1 }),
      400,
      "invalid_request",
    );
    expect(Object.keys(res.body.errors).sort()).toEqual(["errorRate", "latencyMs"]);
  });
});

describe("close()", () => {
  it("returns promptly even while a held response is pending", async () => {
    const other = await startTestSandbox();
    await other.control("PUT", "/faults", { timeoutRate: 1, timeoutMs: 60_000 });
    const pending = other.api("/products").catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
