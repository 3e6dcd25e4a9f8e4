import { z } from "zod";
import { createReadCache } from "./read-cache";
import * as s from "./schemas";
import { createTransport, type Priority, type Spender, type TransportOptions } from "./transport";

/**
 * Typed functions for every endpoint of the Integration API v1. Reads of the catalog are
 * cached briefly and coalesced; everything else goes to the upstream each time.
 * Construct once per process (lib/upstream/service.ts wires it to the database-backed budget).
 */
/**
 * A cache shared by every process and instance of the app (the database's, lib/upstream/shared-read-cache.ts),
 * behind each process's own: catalog answers are JSON, so one process's upstream call serves all.
 */
export type SharedReadCache = {
  get(key: string): Promise<{ value: unknown; expiresAt: number } | null>;
  put(key: string, value: unknown, expiresAt: number): Promise<void>;
};

export type ServiceClientOptions = TransportOptions & { catalogTtlMs?: number; shared?: SharedReadCache };
/**
 * How a call is charged to the shared budget: its class, who it is for (a person is held to
 * their share of the minute; lib/upstream/db-budget.ts) and whether it is a lookup of
 * something the app may not know.
 */
export type CallOptions = { priority?: Priority; deadlineMs?: number; by?: Spender; lookup?: boolean; patient?: boolean };

export type ProductQuery = { query?: string; countryCode?: string; category?: string; offset?: number; limit?: number };
export type OrderQuery = {
  status?: string;
  clientReference?: string;
  createdFromUtc?: string;
  createdToUtc?: string;
  cursor?: string;
  limit?: number;
};
export type QuoteRequest = {
  productId: string;
  variantId?: string | null;
  value?: number | null;
  quantity: number;
  currency: string;
};
export type OrderRequest =
  | { quoteId: string; clientReference: string; purchaseInput?: { phoneNumber: string } }
  | {
      item: { productId: string; variantId?: string | null; value?: number | null; quantity: number; currency: string };
      clientReference: string;
      maximumTotal?: number;
      purchaseInput?: { phoneNumber: string };
    };
export type WithdrawalRequest = { amount: number; currency: string };

/** A product image is taken up to 8 MiB (JSON answers up to the transport's 5 MiB). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

export function createServiceClient(options: ServiceClientOptions) {
  const http = createTransport(options);
  const cache = createReadCache();
  const catalogTtlMs = options.catalogTtlMs ?? 60_000;

  /**
   * A catalog read: this process's cache, then the shared one, then the upstream (whose answer
   * then fills both). An answer found in the shared cache is kept here only for what is left
   * of its time, so nothing is served older than the TTL. The shared cache failing costs only
   * its saving: the read goes to the upstream.
   */
  const catalogRead = async <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const shared = options.shared;
    if (!shared || catalogTtlMs <= 0) return cache.get(key, catalogTtlMs, load);
    const found = await cache.get(
      key,
      (entry) => entry.expiresAt - Date.now(),
      async () => {
        const held = await shared.get(key).catch(() => null);
        if (held && held.expiresAt > Date.now()) return { value: held.value as T, expiresAt: held.expiresAt };
        const value = await load();
        const expiresAt = Date.now() + catalogTtlMs;
        await shared.put(key, value, expiresAt).catch(() => undefined);
        return { value, expiresAt };
      },
    );
    return found.value;
  };

  const get = <S extends z.ZodType>(
    path: string,
    schema: S,
    query: Record<string, string | number | undefined> = {},
    call: CallOptions = {},
  ) => http.request({ method: "GET", path, query, schema, retry: "read", ...call });

  return {
    transport: http,
    cache,

    // Catalog (cached, coalesced)
    listProducts: (q: ProductQuery, call: CallOptions = {}) =>
      catalogRead(
        `products:${JSON.stringify(q)}`,
        async () => (await get("/api/v1/products", s.productPageSchema, q, call)).data,
      ),
    getProduct: (id: string, call: CallOptions = {}) =>
      catalogRead(
        `product:${id}`,
        async () => (await get(`/api/v1/products/${encodeURIComponent(id)}`, s.productSchema, {}, call)).data,
      ),
    /** Raw image bytes; pass the ETag held to revalidate (a 304 costs no body). */
    getProductImage: (publicReference: string, etag?: string, call: CallOptions = {}) =>
      http.send({
        method: "GET",
        path: `/api/v1/catalog-product-images/${encodeURIComponent(publicReference)}`,
        headers: { Accept: "image/*", ...(etag ? { "If-None-Match": etag } : {}) },
        retry: "read",
        maxAnswerBytes: MAX_IMAGE_BYTES,
        ...call,
      }),

    // Quotes and orders
    // A quote charges nothing, so a lost answer is simply asked again (a spare quote expires).
    createQuote: async (body: QuoteRequest, call: CallOptions = {}) =>
      http.request({ method: "POST", path: "/api/v1/quotes", body, schema: s.quoteSchema, retry: "read", ...call }),
    createOrder: async (body: OrderRequest, idempotencyKey: string, call: CallOptions = {}) =>
      http.request({
        method: "POST",
        path: "/api/v1/orders",
        body,
        idempotencyKey,
        schema: s.orderSchema,
        retry: "idempotent",
        ...call,
      }),
    getOrder: async (id: string, call: CallOptions = {}) =>
      get(`/api/v1/orders/${encodeURIComponent(id)}`, s.orderSchema, {}, call),
    listOrders: async (q: OrderQuery, call: CallOptions = {}) => get("/api/v1/orders", s.orderPageSchema, q, call),
    revealFulfillment: async (orderId: string, idempotencyKey: string, call: CallOptions = {}) =>
      http.request({
        method: "POST",
        path: `/api/v1/orders/${encodeURIComponent(orderId)}/fulfillment`,
        idempotencyKey,
        schema: s.revealSchema,
        retry: "idempotent",
        ...call,
      }),

    // Wallet
    getBalances: async (call: CallOptions = {}) => get("/api/v1/wallet/balance", s.balanceListSchema, {}, call),
    getBalance: async (currency: string, call: CallOptions = {}) =>
      get("/api/v1/wallet/balance", s.balanceSchema, { currency }, call),
    listDeposits: async (q: { cursor?: string; limit?: number; currency?: string } = {}, call: CallOptions = {}) =>
      get("/api/v1/wallet/deposits", s.depositPageSchema, q, call),
    getDepositAddress: async (call: CallOptions = {}) =>
      get("/api/v1/wallet/deposit-addresses/bsc-usd", s.depositAddressSchema, {}, call),
    requestDepositAddress: async (call: CallOptions = {}) =>
      // PUT creates the permanent address once and returns the same one after: safe to retry.
      http.request({
        method: "PUT",
        path: "/api/v1/wallet/deposit-addresses/bsc-usd",
        schema: s.depositAddressSchema,
        retry: "read",
        ...call,
      }),

    // Withdrawals
    quoteWithdrawal: async (body: WithdrawalRequest, call: CallOptions = {}) =>
      http.request({
        method: "POST",
        path: "/api/v1/withdrawals/quotes",
        body,
        schema: s.withdrawalTermsSchema,
        retry: "read",
        ...call,
      }),
    listWithdrawals: async (q: { status?: string; cursor?: string; limit?: number } = {}, call: CallOptions = {}) =>
      get("/api/v1/withdrawals", s.withdrawalPageSchema, q, call),
    /** No idempotency upstream: never resent here. Callers reconcile (lib/withdrawals). */
    createWithdrawal: async (body: WithdrawalRequest, call: CallOptions = {}) =>
      http.request({ method: "POST", path: "/api/v1/withdrawals", body, schema: s.withdrawalSchema, retry: "never", ...call }),
    cancelWithdrawal: async (id: string, call: CallOptions = {}) =>
      http.request({
        method: "POST",
        path: `/api/v1/withdrawals/${encodeURIComponent(id)}/cancellation`,
        schema: s.withdrawalSchema,
        retry: "never",
        ...call,
      }),
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;
