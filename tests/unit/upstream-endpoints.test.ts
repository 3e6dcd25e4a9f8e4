import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { serveOnLoopback } from "../support/loopback";
import { createServiceClient, type ServiceClient } from "@/lib/upstream/client";
import { ENDPOINTS, findEndpoint, pathOf, type Endpoint, type EndpointName } from "@/lib/upstream/client/endpoints";
import { SCOPES } from "@/lib/upstream/client/keys";

/**
 * The one table of upstream endpoints (lib/upstream/client/endpoints.ts): every entry says all
 * a call needs, the scope lookup finds each entry by its own path, and every client function
 * sends exactly the request its entry names, against a real local server.
 */

/** What is missing or wrong in one definition; empty when it is complete. */
function definitionProblems(e: Partial<Endpoint>): string[] {
  const problems: string[] = [];
  if (!["GET", "POST", "PUT"].includes(e.method ?? "")) problems.push("method");
  if (!/^\/api\/v1\/[a-z0-9{}/-]+$/i.test(e.path ?? "")) problems.push("path");
  if (!(SCOPES as readonly string[]).includes(e.scope ?? "")) problems.push("scope");
  if (e.answer !== "bytes" && !(e.answer instanceof z.ZodType)) problems.push("answer schema");
  if (!["read", "idempotent", "never"].includes(e.retry ?? "")) problems.push("retry");
  // The contract's retry rules (§7): a GET is always safe to ask again; an Idempotency-Key is a POST's.
  if (e.method === "GET" && e.retry !== "read") problems.push("a GET retried as a read");
  if (e.retry === "idempotent" && e.method !== "POST") problems.push("idempotent only on a POST");
  return problems;
}

const names = Object.keys(ENDPOINTS) as EndpointName[];
const sampleParams = (e: Endpoint) => Object.fromEntries([...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, "x_1"]));

describe("the ENDPOINTS table", () => {
  test.each(names)("%s says its method, path, scope, answer and retry class", (name) => {
    expect(definitionProblems(ENDPOINTS[name])).toEqual([]);
  });

  test("a definition without a scope, a schema or a path is found incomplete", () => {
    expect(definitionProblems({ method: "GET", retry: "read" })).toEqual(["path", "scope", "answer schema"]);
    expect(definitionProblems({ ...ENDPOINTS.createOrder, method: "PUT" })).toEqual(["idempotent only on a POST"]);
  });

  test.each(names)("%s is found by the scope lookup at its own path, with its own scope", (name) => {
    const e = ENDPOINTS[name];
    const found = findEndpoint(e.method, pathOf(e, sampleParams(e)));
    expect(found).toBeDefined();
    // Two entries may share a method and path (one balance or all): they must then need the same scope.
    expect(ENDPOINTS[found!]).toMatchObject({ method: e.method, path: e.path, scope: e.scope });
  });
});

describe("the client", () => {
  type Seen = { method: string; path: string; idempotencyKey?: string };
  const seen: Seen[] = [];
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ base, close } = await serveOnLoopback((req, res) => {
      const url = new URL(req.url!, "http://x");
      const key = req.headers["idempotency-key"];
      seen.push({ method: req.method!, path: url.pathname, idempotencyKey: typeof key === "string" ? key : undefined });
      res.writeHead(404, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ status: 404, code: "not_found", title: "Not found" }));
    }));
  });
  afterAll(() => close());

  /** One call of each client function; a function missing here or an entry no function serves fails the test. */
  const calls: Record<EndpointName, (c: ServiceClient) => Promise<unknown>> = {
    listProducts: (c) => c.listProducts({ limit: 1 }),
    getProduct: (c) => c.getProduct("prd 1"),
    getProductImage: (c) => c.getProductImage("img_1"),
    createQuote: (c) => c.createQuote({ productId: "prd_1", quantity: 1, currency: "USD" }),
    createOrder: (c) => c.createOrder({ quoteId: "q_1", clientReference: "r_1" }, "idem-order"),
    getOrder: (c) => c.getOrder("ord_1"),
    listOrders: (c) => c.listOrders({ limit: 1 }),
    revealFulfillment: (c) => c.revealFulfillment("ord_1", "idem-reveal"),
    getBalances: (c) => c.getBalances(),
    getBalance: (c) => c.getBalance("USD"),
    listDeposits: (c) => c.listDeposits(),
    getDepositAddress: (c) => c.getDepositAddress(),
    requestDepositAddress: (c) => c.requestDepositAddress(),
    quoteWithdrawal: (c) => c.quoteWithdrawal({ amount: 20, currency: "USD" }),
    listWithdrawals: (c) => c.listWithdrawals(),
    createWithdrawal: (c) => c.createWithdrawal({ amount: 20, currency: "USD" }),
    cancelWithdrawal: (c) => c.cancelWithdrawal("wd_1"),
  };

  /** A client with every scope and no catalog cache, and no request seen yet. */
  const freshClient = () => {
    seen.length = 0;
    return createServiceClient({
      baseUrl: base,
      keys: [{ name: "general", keys: ["svckey_test_secret"] }],
      budget: { acquire: async () => {} },
      catalogTtlMs: 0,
    });
  };

  test("has one function per entry, of the same name, and nothing else that calls the upstream", () => {
    const client = freshClient();
    const functions = Object.keys(client).filter((k) => typeof client[k as keyof ServiceClient] === "function");
    expect(functions.sort()).toEqual([...names].sort());
  });

  test.each(names)("%s sends the method and path its entry names, with an Idempotency-Key only where it says", async (name) => {
    const client = freshClient();
    await expect(calls[name](client)).rejects.toMatchObject({ status: 404, code: "not_found" });
    const e = ENDPOINTS[name];
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: e.method });
    expect(ENDPOINTS[findEndpoint(seen[0]!.method, seen[0]!.path)!]).toMatchObject({ method: e.method, path: e.path });
    expect(seen[0]!.idempotencyKey !== undefined).toBe(e.retry === "idempotent");
  });

  test("a segment the caller fills is sent encoded, never as a path of its own", async () => {
    const client = freshClient();
    await client.getOrder("a/b?c").catch(() => undefined);
    expect(seen.map((s) => s.path)).toEqual(["/api/v1/orders/a%2Fb%3Fc"]);
  });

  test("an order or a reveal is never sent without its Idempotency-Key", async () => {
    const client = freshClient();
    await expect(client.createOrder({ quoteId: "q_1", clientReference: "r_1" }, "")).rejects.toThrow(/Idempotency-Key/);
    await expect(client.revealFulfillment("ord_1", "")).rejects.toThrow(/Idempotency-Key/);
    expect(seen).toEqual([]);
  });
});
