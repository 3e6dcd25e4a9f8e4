import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem, startTestSandbox, type Json, type TestSandbox } from "./support/client";

// The control plane's order history (POST /_sandbox/orders/seed) and its 429 counter:
// sandbox additions for tests and benchmarks (sandbox/README.md, control plane).
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ rateLimitPerMinute: 3 });
});
afterAll(() => sb.close());

describe("POST /_sandbox/orders/seed", () => {
  it("creates fulfilled orders in the past, listed newest first like any order, that reveal like any order", async () => {
    const before = (await sb.control("GET", "/health")).body;
    const seeded = await sb.control("POST", "/orders/seed", { count: 250, spreadSeconds: 3_600, referencePrefix: "shop-" });
    expect(seeded.status).toBe(201);
    expect(seeded.body.count).toBe(250);
    const ids: string[] = seeded.body.ids;
    expect(new Set(ids).size).toBe(250);

    const page = (await sb.api("/orders?limit=100")).body;
    expect(page.items[0]).toMatchObject({ id: ids[249], clientReference: "shop-00250", status: "fulfilled" });
    expect(page.hasMore).toBe(true);
    const created = page.items.map((o: Json) => Date.parse(o.createdAtUtc));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(Date.parse(before.nowUtc) - created.at(-1)).toBeGreaterThan(0);

    // A seeded fulfilled order reveals like any other.
    const reveal = await sb.api(`/orders/${ids[0]}/fulfillment`, { body: {}, headers: { "Idempotency-Key": "seed-reveal-1" } });
    expect(reveal.status).toBe(200);
    expect(reveal.body.artifacts.length).toBeGreaterThan(0);
  });

  it("refuses bad input with a 400 problem naming the field", async () => {
    expectProblem(await sb.control("POST", "/orders/seed", { count: 0 }), 400, "invalid_request");
    expectProblem(await sb.control("POST", "/orders/seed", { count: 2, status: "lost" }), 400, "invalid_request");
    expectProblem(await sb.control("POST", "/orders/seed", { count: 2, wallet: 1 }), 400, "invalid_request");
  });

  it("counts the 429s it answered since start", async () => {
    const start = (await sb.control("GET", "/rate-limit")).body.rateLimitedSinceStart;
    for (let i = 0; i < 5; i++) await sb.api("/products?limit=1");
    const after = (await sb.control("GET", "/rate-limit")).body;
    expect(after.perMinute).toBe(3);
    expect(after.rateLimitedSinceStart).toBeGreaterThan(start);
  });
});
