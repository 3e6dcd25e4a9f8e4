export {
  createServiceClient,
  type ServiceClient,
  type OrderRequest,
  type QuoteRequest,
  type ProductQuery,
  type OrderQuery,
  type CallOptions,
  type CatalogCallOptions,
  type SharedReadCache,
} from "./client";
export { ServiceError, isServiceError } from "./errors";
export {
  createTransport,
  assertSafeBaseUrl,
  type KeyOutcome,
  BudgetRefusal,
  type BudgetCharge,
  type RequestBudget,
  type Priority,
  type Spender,
  type AttemptLog,
} from "./transport";
export * from "./schemas";
export { KEY_SCOPES, SCOPES, keyLookupSegment, type KeyName, type KeySlotConfig, type Scope } from "./keys";
export { ENDPOINTS, scopeFor } from "./endpoints";
