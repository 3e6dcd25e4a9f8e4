import { ENDPOINTS, type JsonEndpoint } from "./endpoints";
import { createReadCache } from "./read-cache";
import { createTransport, type Priority, type RawRequest, type Spender, type TransportOptions } from "./transport";

/**
 * Typed functions for every endpoint of the Integration API v1, one per entry of ENDPOINTS
 * (./endpoints.ts, which says each one's method, path, scope, answer and retries). Reads of the
 * catalog are cached briefly and coalesced; everything else goes to the upstream each time.
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
/** A catalog read that must see the upstream now (the catalog watch): no cache answers it, and its answer fills both. */
export type CatalogCallOptions = CallOptions & { fresh?: boolean };

/** `ids`: the multi-product refresh, 1–100 comma-separated ids, alone (service-api-v1 §4.1). */
export type ProductQuery = {
  query?: string;
  countryCode?: string;
  category?: string;
  offset?: number;
  limit?: number;
  ids?: string;
};
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
  const catalogRead = async <T>(key: string, load: () => Promise<T>, fresh = false): Promise<T> => {
    const shared = options.shared;
    if (fresh) {
      cache.invalidate(key);
      const value = await load();
      if (shared && catalogTtlMs > 0) await shared.put(key, value, Date.now() + catalogTtlMs).catch(() => undefined);
      return value;
    }
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

  /** One call of a JSON endpoint of ENDPOINTS, charged as `call` says. */
  const json = <E extends JsonEndpoint>(
    endpoint: E,
    req: Pick<RawRequest<E>, "params" | "query" | "body" | "idempotencyKey">,
    call: CallOptions,
  ) => http.request({ endpoint, ...req, ...call });

  // One function per entry of ENDPOINTS, of the same name (tests/unit/upstream-endpoints.test.ts).
  return {
    transport: http,
    cache,

    // Catalog (cached, coalesced)
    listProducts: (q: ProductQuery, { fresh, ...call }: CatalogCallOptions = {}) =>
      catalogRead(
        `products:${JSON.stringify(q)}`,
        async () => (await json(ENDPOINTS.listProducts, { query: q }, call)).data,
        fresh,
      ),
    getProduct: (id: string, call: CallOptions = {}) =>
      catalogRead(`product:${id}`, async () => (await json(ENDPOINTS.getProduct, { params: { productId: id } }, call)).data),
    /** Raw image bytes; pass the ETag held to revalidate (a 304 costs no body). */
    getProductImage: (publicReference: string, etag?: string, call: CallOptions = {}) =>
      http.send({
        endpoint: ENDPOINTS.getProductImage,
        params: { publicReference },
        headers: { Accept: "image/*", ...(etag ? { "If-None-Match": etag } : {}) },
        ...call,
      }),

    // Quotes and orders
    createQuote: async (body: QuoteRequest, call: CallOptions = {}) => json(ENDPOINTS.createQuote, { body }, call),
    createOrder: async (body: OrderRequest, idempotencyKey: string, call: CallOptions = {}) =>
      json(ENDPOINTS.createOrder, { body, idempotencyKey }, call),
    getOrder: async (id: string, call: CallOptions = {}) => json(ENDPOINTS.getOrder, { params: { orderId: id } }, call),
    listOrders: async (q: OrderQuery, call: CallOptions = {}) => json(ENDPOINTS.listOrders, { query: q }, call),
    revealFulfillment: async (orderId: string, idempotencyKey: string, call: CallOptions = {}) =>
      json(ENDPOINTS.revealFulfillment, { params: { orderId }, idempotencyKey }, call),

    // Wallet
    getBalances: async (call: CallOptions = {}) => json(ENDPOINTS.getBalances, {}, call),
    getBalance: async (currency: string, call: CallOptions = {}) => json(ENDPOINTS.getBalance, { query: { currency } }, call),
    listDeposits: async (q: { cursor?: string; limit?: number; currency?: string } = {}, call: CallOptions = {}) =>
      json(ENDPOINTS.listDeposits, { query: q }, call),
    getDepositAddress: async (call: CallOptions = {}) => json(ENDPOINTS.getDepositAddress, {}, call),
    requestDepositAddress: async (call: CallOptions = {}) => json(ENDPOINTS.requestDepositAddress, {}, call),

    // Withdrawals
    quoteWithdrawal: async (body: WithdrawalRequest, call: CallOptions = {}) => json(ENDPOINTS.quoteWithdrawal, { body }, call),
    listWithdrawals: async (q: { status?: string; cursor?: string; limit?: number } = {}, call: CallOptions = {}) =>
      json(ENDPOINTS.listWithdrawals, { query: q }, call),
    /** No idempotency upstream: never resent here. Callers reconcile (lib/withdrawals). */
    createWithdrawal: async (body: WithdrawalRequest, call: CallOptions = {}) => json(ENDPOINTS.createWithdrawal, { body }, call),
    cancelWithdrawal: async (id: string, call: CallOptions = {}) =>
      json(ENDPOINTS.cancelWithdrawal, { params: { withdrawalId: id } }, call),
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;
