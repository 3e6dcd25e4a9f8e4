import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { serveOnLoopback } from "../support/loopback";
import { createServiceClient, isServiceError, type AttemptLog } from "@/lib/upstream/client";

/**
 * The cap on an answer's size, through the upstream client against a real local server: JSON
 * answers up to 5 MiB, product images up to 8 MiB; past it the call fails at once, saying why.
 */
const MiB = 1024 * 1024;
let baseUrl: string;
let close: () => Promise<void>;
const served = new Map<string, number>();

beforeAll(async () => {
  ({ base: baseUrl, close } = await serveOnLoopback((req, res) => {
    const path = new URL(req.url!, "http://x").pathname;
    served.set(path, (served.get(path) ?? 0) + 1);
    if (path === "/api/v1/products") {
      // A JSON answer of about 6 MiB: a page no upstream should send.
      const items = Array.from({ length: 6 * 1024 }, (_, i) => ({ id: `p${i}`, name: "x".repeat(1000) }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ items, total: items.length, offset: 0, limit: items.length }));
      return;
    }
    const size = path.endsWith("/large") ? 9 * MiB : 6 * MiB;
    res.writeHead(200, { "content-type": "image/png" });
    res.end(Buffer.alloc(size, 1));
  }));
});
afterAll(() => close());

function client(attempts: AttemptLog[]) {
  return createServiceClient({
    baseUrl,
    keys: [{ name: "general", keys: ["svckey_test_secret"] }],
    budget: { acquire: async () => {} },
    retryBaseMs: 1,
    onAttempt: (log) => attempts.push(log),
  });
}

describe("the size of an upstream answer", () => {
  test("a JSON answer over 5 MiB fails once, as a malformed answer naming the cap, and is not asked again", async () => {
    const attempts: AttemptLog[] = [];
    const error = await client(attempts)
      .listProducts({})
      .then(
        () => "resolved",
        (e: unknown) => e,
      );
    expect(isServiceError(error)).toBe(true);
    expect(error).toMatchObject({ code: "malformed_response", status: 502 });
    expect((error as Error).message).toMatch(/larger than 5242880 bytes for \/api\/v1\/products/);
    expect(attempts.map((a) => a.outcome)).toEqual(["error"]);
    expect(served.get("/api/v1/products")).toBe(1);
  });

  test("a product image may be larger than JSON, up to its own cap", async () => {
    const attempts: AttemptLog[] = [];
    const upstream = client(attempts);
    const image = await upstream.getProductImage("six");
    expect(image.body.length).toBe(6 * MiB);
    const error = await upstream.getProductImage("large").then(
      () => "resolved",
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "malformed_response" });
    expect((error as Error).message).toMatch(/larger than 8388608 bytes/);
  });
});
