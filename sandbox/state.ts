// Everything the sandbox remembers. Plain data (Maps and arrays of records) so that persist.ts can write it as JSON.
// Money fields ending in `Cents` are integer minor units; `...Ms` fields are sandbox-clock epoch milliseconds.

export const SCOPES = [
  "products.read",
  "quotes.create",
  "orders.create",
  "orders.read",
  "wallet.read",
  "wallet.deposit-address.write",
  "wallet.withdraw",
] as const;
export type Scope = (typeof SCOPES)[number];

export type ApiKey = {
  id: string;
  workspaceId: string;
  lookup: string;
  secretHash: string;
  scopes: Scope[];
  allowCidrs: string[];
  expiresAtMs: number | null;
  revokedAtMs: number | null;
  createdAtMs: number;
  label: string | null;
};

export type Balance = { availableCents: number; reservedCents: number; withdrawalHoldCents: number; updatedAtMs: number };

export type Quote = {
  id: string;
  productId: string;
  variantId: string | null; // null for a value purchase (the order line then carries a synthetic id)
  valueCents: number | null;
  line: OrderLine; // the priced line the order will copy: a quote is binding even if prices change
  totalCents: number;
  currency: string;
  createdAtMs: number;
  expiresAtMs: number;
  usedByOrderId: string | null;
};

export type OrderStatus = "reserved" | "processing" | "fulfilled" | "failed" | "refunded";

export type OrderLine = {
  productId: string;
  productType: string;
  variantId: string;
  productName: string;
  variantLabel: string;
  quantity: number;
  unitCents: number;
  currency: string;
  faceCents: number;
  faceCurrency: string;
};

export type Artifact = { type: string; value: string; expiresAtMs: number | null; lineIndex: number; unitIndex: number };

export type Order = {
  id: string;
  seq: number;
  clientReference: string;
  status: OrderStatus;
  totalCents: number;
  currency: string;
  lines: OrderLine[];
  quoteId: string | null;
  createdAtMs: number;
  updatedAtMs: number;
  createdByKeyId: string;
  artifacts: Artifact[] | null;
  revealCount: number;
  failureReason: string | null;
};

export type OrderIdempotency = { fingerprint: string; orderId: string; createdAtMs: number };
export type RevealRecord = { orderId: string; revealCount: number; revealedAtMs: number };

export type WithdrawalStatus = "requested" | "cancelled" | "paid";
export type Withdrawal = {
  id: string;
  seq: number;
  amountCents: number;
  feeCents: number;
  currency: string;
  status: WithdrawalStatus;
  requestedAtMs: number;
  payoutAtMs: number;
  cancelledAtMs: number | null;
  paidAtMs: number | null;
  requestedByKeyId: string;
};

export type Deposit = {
  id: string;
  seq: number;
  rail: "bsc-usd" | "bank-transfer";
  transactionHash: string | null;
  reference: string | null;
  fromAddress: string | null;
  toAddress: string | null;
  amountCents: number;
  currency: string;
  occurredAtMs: number;
};

export type DepositAddress = { network: string; asset: string; currency: string; address: string; createdAtMs: number };

export type Workspace = {
  id: string;
  balances: Map<string, Balance>;
  orders: Map<string, Order>;
  orderSeq: number;
  orderKeys: Map<string, OrderIdempotency>;
  revealKeys: Map<string, RevealRecord>;
  quotes: Map<string, Quote>;
  withdrawals: Map<string, Withdrawal>;
  withdrawalSeq: number;
  deposits: Deposit[];
  depositAddresses: Map<string, DepositAddress>;
  rateWindow: { startMs: number; count: number };
};

export type WebhookEndpoint = {
  id: string;
  workspaceId: string;
  url: string;
  secret: string;
  eventTypes: string[] | null;
  createdAtMs: number;
};

export type DeliveryAttempt = {
  number: number;
  startedAtUtc: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
};

export type Delivery = {
  id: string;
  endpointId: string;
  workspaceId: string;
  eventId: string; // the envelope id without dashes, as sent in X-Service-Event-Id
  eventType: string;
  body: string;
  status: "pending" | "delivered" | "parked";
  attempts: DeliveryAttempt[];
  attemptsInCycle: number; // reset by a redelivery from the control plane
  nextAttemptAtRealMs: number | null;
  parkedReason: string | null;
  createdAtMs: number;
};

export type EventRecord = { id: string; workspaceId: string; type: string; occurredAtMs: number; body: string };

export type AuditEntry = {
  atMs: number;
  workspaceId: string;
  keyId: string | null;
  action: string;
  resourceId: string;
  correlationId: string | null;
  details?: Record<string, unknown>;
};

export type ProductOverride = { isAvailable?: boolean; priceFactorPpm?: number };

export type State = {
  version: 1;
  clockOffsetMs: number;
  defaultWebhookSecret: string;
  workspaces: Map<string, Workspace>;
  keys: Map<string, ApiKey>;
  keyIdsByLookup: Map<string, string>;
  endpoints: Map<string, WebhookEndpoint>;
  deliveries: Map<string, Delivery>;
  events: EventRecord[];
  audit: AuditEntry[];
  productOverrides: Map<string, ProductOverride>;
};

export const DEFAULT_WORKSPACE = "ws_default";

export function createState(defaultWebhookSecret: string): State {
  return {
    version: 1,
    clockOffsetMs: 0,
    defaultWebhookSecret,
    workspaces: new Map(),
    keys: new Map(),
    keyIdsByLookup: new Map(),
    endpoints: new Map(),
    deliveries: new Map(),
    events: [],
    audit: [],
    productOverrides: new Map(),
  };
}

export function createWorkspace(id: string): Workspace {
  return {
    id,
    balances: new Map(),
    orders: new Map(),
    orderSeq: 0,
    orderKeys: new Map(),
    revealKeys: new Map(),
    quotes: new Map(),
    withdrawals: new Map(),
    withdrawalSeq: 0,
    deposits: [],
    depositAddresses: new Map(),
    rateWindow: { startMs: 0, count: 0 },
  };
}

export function workspaceFor(state: State, id: string): Workspace {
  let ws = state.workspaces.get(id);
  if (!ws) {
    ws = createWorkspace(id);
    state.workspaces.set(id, ws);
  }
  return ws;
}

// Logs kept for the control plane are bounded so a long benchmark cannot grow memory without limit.
export function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
