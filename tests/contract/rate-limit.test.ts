import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "./support/client";
import { expectRefused } from "./support/state";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ rateLimitPerMinute: 5 });
});
afterAll(() => sb.close());

// Aligns the sandbox clock to the start of a fresh minute so a test owns a whole window.
async function freshWindow(): Promise<void> {
  const now = Date.parse((await sb.control("GET", "/clock")).body.nowUtc);
  await sb.control("POST", "/clock/advance", { seconds: (60_000 - (now % 60_000)) / 1000 + 1 });
}

describe("rate limit", () => {
  it("allows the configured requests per minute and answers the next with 429 rate_limited and Retry-After", async () => {
    await freshWindow();
    for (let i = 0; i < 5; i++) expect((await sb.api("/products?limit=1")).status).toBe(200);
    const limited = await expectRefused(sb, () => sb.api("/products?limit=1"), 429, "rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("reports each window's requests let through and refused, per workspace", async () => {
    await freshWindow();
    for (let i = 0; i < 7; i++) await sb.api("/products?limit=1");
    const now = Date.parse((await sb.control("GET", "/clock")).body.nowUtc);
    const startUtc = new Date(now - (now % 60_000)).toISOString();
    const { windows } = (await sb.control("GET", "/rate-limit")).body as { windows: Record<string, unknown>[] };
    expect(windows.filter((w) => w.startUtc === startUtc)).toEqual([
      { workspace: "ws_default", startUtc, accepted: 5, rateLimited: 2 },
    ]);
  });

  it("counts per workspace: another workspace's key is not limited by this one's traffic", async () => {
    await freshWindow();
    for (let i = 0; i < 5; i++) await sb.api("/products?limit=1");
    await expectRefused(sb, () => sb.api("/products?limit=1"), 429, "rate_limited");
    const { key } = (await sb.control("POST", "/keys", { scopes: ["products.read"], workspace: "ws_quiet" })).body;
    expect((await sb.api("/products?limit=1", { key })).status).toBe(200);
    const sameWorkspace = (await sb.control("POST", "/keys", { scopes: ["products.read"] })).body.key;
    await expectRefused(sb, () => sb.api("/products?limit=1", { key: sameWorkspace }), 429, "rate_limited");
  });

  it("uses a fixed one-minute window: the next minute starts from zero", async () => {
    await freshWindow();
    for (let i = 0; i < 5; i++) await sb.api("/products?limit=1");
    await expectRefused(sb, () => sb.api("/products?limit=1"), 429, "rate_limited");
    await freshWindow();
    expect((await sb.api("/products?limit=1")).status).toBe(200);
  });

  it("can be raised through the control plane, which is never rate limited itself", async () => {
    await freshWindow();
    for (let i = 0; i < 20; i++) expect((await sb.control("GET", "/health")).status).toBe(200);
    expect((await sb.control("PUT", "/rate-limit", { perMinute: 50 })).body).toEqual({ perMinute: 50 });
    for (let i = 0; i < 10; i++) expect((await sb.api("/products?limit=1")).status).toBe(200);
    await expectRefused(sb, () => sb.control("PUT", "/rate-limit", { perMinute: 0 }), 400, "invalid_request");
  });
});
