import type { z } from "zod";
import type { Scope } from "./keys";
import type { RetryKind } from "./retry-policy";
import * as s from "./schemas";

/**
 * Every endpoint of the Integration API v1 the app calls, once (contract §4, scopes §5, retries
 * §7). The client's functions (./client.ts), the scope a call's key must hold (./keys.ts) and the
 * metric label of a call all come from this table: adding an endpoint is one entry here, one
 * client function naming it, and the tests in tests/unit/upstream-endpoints.test.ts.
 */
export type Endpoint = {
  method: "GET" | "POST" | "PUT";
  /** The contract's path; each `{name}` is a segment the caller fills (URL-encoded). */
  path: `/api/v1/${string}`;
  scope: Scope;
  /** The answer's shape: a zod schema for JSON, or raw bytes (a product image). */
  answer: z.ZodType | "bytes";
  /** `idempotent` calls carry an Idempotency-Key, the same on every attempt (./retry-policy.ts). */
  retry: RetryKind;
  /** The largest answer body taken, where it differs from the transport's 5 MiB for JSON. */
  maxAnswerBytes?: number;
};

/** A product image is taken up to 8 MiB. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

export const ENDPOINTS = {
  // Catalog (§4.1–4.3)
  listProducts: { method: "GET", path: "/api/v1/products", scope: "products.read", answer: s.productPageSchema, retry: "read" },
  getProduct: {
    method: "GET",
    path: "/api/v1/products/{productId}",
    scope: "products.read",
    answer: s.productSchema,
    retry: "read",
  },
  getProductImage: {
    method: "GET",
    path: "/api/v1/catalog-product-images/{publicReference}",
    scope: "products.read",
    answer: "bytes",
    retry: "read",
    maxAnswerBytes: MAX_IMAGE_BYTES,
  },

  // Quotes and orders (§4.4–4.7). A quote charges nothing, so a lost answer is simply asked again.
  createQuote: { method: "POST", path: "/api/v1/quotes", scope: "quotes.create", answer: s.quoteSchema, retry: "read" },
  createOrder: { method: "POST", path: "/api/v1/orders", scope: "orders.create", answer: s.orderSchema, retry: "idempotent" },
  getOrder: { method: "GET", path: "/api/v1/orders/{orderId}", scope: "orders.read", answer: s.orderSchema, retry: "read" },
  listOrders: { method: "GET", path: "/api/v1/orders", scope: "orders.read", answer: s.orderPageSchema, retry: "read" },
  revealFulfillment: {
    method: "POST",
    path: "/api/v1/orders/{orderId}/fulfillment",
    scope: "orders.read",
    answer: s.revealSchema,
    retry: "idempotent",
  },

  // Wallet (§4.8). The PUT creates the permanent address once and returns the same one after: safe to retry.
  getBalances: {
    method: "GET",
    path: "/api/v1/wallet/balance",
    scope: "wallet.read",
    answer: s.balanceListSchema,
    retry: "read",
  },
  getBalance: { method: "GET", path: "/api/v1/wallet/balance", scope: "wallet.read", answer: s.balanceSchema, retry: "read" },
  listDeposits: {
    method: "GET",
    path: "/api/v1/wallet/deposits",
    scope: "wallet.read",
    answer: s.depositPageSchema,
    retry: "read",
  },
  getDepositAddress: {
    method: "GET",
    path: "/api/v1/wallet/deposit-addresses/bsc-usd",
    scope: "wallet.read",
    answer: s.depositAddressSchema,
    retry: "read",
  },
  requestDepositAddress: {
    method: "PUT",
    path: "/api/v1/wallet/deposit-addresses/bsc-usd",
    scope: "wallet.deposit-address.write",
    answer: s.depositAddressSchema,
    retry: "read",
  },

  // Withdrawals (§4.9). No idempotency upstream: never resent here; callers reconcile (lib/withdrawals).
  quoteWithdrawal: {
    method: "POST",
    path: "/api/v1/withdrawals/quotes",
    scope: "wallet.read",
    answer: s.withdrawalTermsSchema,
    retry: "read",
  },
  listWithdrawals: {
    method: "GET",
    path: "/api/v1/withdrawals",
    scope: "wallet.read",
    answer: s.withdrawalPageSchema,
    retry: "read",
  },
  createWithdrawal: {
    method: "POST",
    path: "/api/v1/withdrawals",
    scope: "wallet.withdraw",
    answer: s.withdrawalSchema,
    retry: "never",
  },
  cancelWithdrawal: {
    method: "POST",
    path: "/api/v1/withdrawals/{withdrawalId}/cancellation",
    scope: "wallet.withdraw",
    answer: s.withdrawalSchema,
    retry: "never",
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;
/** An endpoint answering JSON, and the type of what it answers. */
export type JsonEndpoint = Endpoint & { answer: z.ZodType };
export type AnswerOf<E extends JsonEndpoint> = z.infer<E["answer"]>;

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** The values of an endpoint's `{name}` segments. */
export type PathParams<E extends Endpoint> = Record<ParamNames<E["path"]>, string>;

const PARAM = /\{([^}]+)\}/g;

/** The endpoint's path with its segments filled; a segment left unfilled is a programming error. */
export function pathOf(endpoint: Endpoint, params: Record<string, string> = {}): string {
  return endpoint.path.replace(PARAM, (_, param: string) => {
    const value = params[param];
    if (value === undefined) throw new Error(`${endpoint.method} ${endpoint.path} needs {${param}}`);
    return encodeURIComponent(value);
  });
}

/** The endpoint's path as a metric label: each filled segment is ":id", so a label names no id. */
export function endpointLabel(endpoint: Endpoint): string {
  return endpoint.path.replace(PARAM, ":id");
}

const MATCHERS = (Object.keys(ENDPOINTS) as EndpointName[]).map((name) => {
  const { method, path } = ENDPOINTS[name];
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(PARAM, "[^/]+");
  return { name, method: method as string, path: new RegExp(`^${pattern}$`) };
});

/** Which endpoint a method and a concrete path (a query is ignored) are, if any. */
export function findEndpoint(method: string, path: string): EndpointName | undefined {
  const pathOnly = path.split("?")[0] ?? "";
  return MATCHERS.find((m) => m.method === method && m.path.test(pathOnly))?.name;
}

/** The scope a call needs; an endpoint outside the table is a programming error, not a call to send. */
export function scopeFor(method: string, path: string): Scope {
  const name = findEndpoint(method, path);
  if (!name) throw new Error(`No scope is known for ${method} ${path} (lib/upstream/client/endpoints.ts)`);
  return ENDPOINTS[name].scope;
}
