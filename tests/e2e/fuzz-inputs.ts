/**
 * What the fuzz suite (fuzz.spec.ts) knows about each route's inputs. Routes and their
 * methods are discovered from app/api (scripts/discover-api-routes.mjs); this file only
 * gives a well-formed sample of each input so that every field can be broken one at a
 * time. A route without an entry is still fuzzed in its path, query, content type, body
 * framing and methods.
 *
 * Every mutation below is invalid for its field, so every answer must be a 4xx problem
 * document and nothing may change.
 */
export type Kind = "text" | "multiline" | "date" | "int" | "decimal" | "cursor" | "enum" | "code" | "bool";

/** A query parameter's sample value and kind, per route pattern (GET). */
export const QUERY: Record<string, Record<string, [string, Kind]>> = {
  "/api/orders": {
    q: ["q1", "text"],
    origin: ["here", "enum"],
    reference: ["ref", "text"],
    product: ["p1", "text"],
    placedBy: ["me", "code"],
    from: ["2026-01-01", "date"],
    to: ["2026-01-02", "date"],
    status: ["fulfilled", "enum"],
    cursor: ["1.a", "cursor"],
    limit: ["10", "int"],
  },
  "/api/orders/export": {
    q: ["q1", "text"],
    origin: ["here", "enum"],
    reference: ["ref", "text"],
    product: ["p1", "text"],
    placedBy: ["me", "code"],
    from: ["2026-01-01", "date"],
    to: ["2026-01-02", "date"],
    status: ["fulfilled", "enum"],
  },
  "/api/audit": {
    signIns: ["hide", "enum"],
    actor: ["ann", "text"],
    action: ["order.placed", "text"],
    from: ["2026-01-01", "date"],
    to: ["2026-01-02", "date"],
    cursor: ["10", "cursor"],
    limit: ["10", "int"],
  },
  "/api/audit/export": {
    signIns: ["hide", "enum"],
    actor: ["ann", "text"],
    action: ["order.placed", "text"],
    from: ["2026-01-01", "date"],
    to: ["2026-01-02", "date"],
  },
  "/api/events": {
    state: ["failed", "enum"],
    kind: ["order.*", "code"],
    cursor: [`1.${"a".repeat(32)}`, "cursor"],
    limit: ["10", "int"],
  },
  "/api/bulk-orders": { limit: ["10", "int"] },
  "/api/bulk-orders/template": { productId: ["p1", "text"] },
  "/api/catalog/products": {
    q: ["steam", "text"],
    category: ["games", "text"],
    country: ["US", "code"],
    size: ["24", "enum"],
    page: ["1", "int"],
  },
  "/api/orders/funds": { currency: ["USD", "code"] },
  "/api/reports/spend/export": {
    period: ["custom", "enum"],
    from: ["2026-01-01", "date"],
    to: ["2026-01-31", "date"],
    grain: ["week", "enum"],
    by: ["country", "enum"],
  },
  "/api/wallet/balance-history": { currency: ["USD", "code"], days: ["30", "int"] },
  "/api/wallet/credits": { limit: ["10", "int"] },
  "/api/wallet/deposits": { cursor: ["abc", "cursor"], limit: ["10", "int"], currency: ["USD", "code"] },
  "/api/withdrawals": { state: ["open", "enum"], page: ["1", "int"] },
  "/api/books/journal": { period: ["2019-01", "code"], format: ["xero", "enum"], currency: ["USD", "code"] },
  "/api/books/journal/delivered": { t: ["not-a-sealed-token", "code"] },
  "/api/spend-requests": { state: ["awaiting", "enum"] },
  "/api/spend-limits/remaining": { currency: ["USD", "code"] },
};

/** A JSON body's well-formed sample and each field's kind (dotted paths), per "METHOD pattern". */
export const BODY: Record<string, { sample: Record<string, unknown>; kinds: Record<string, Kind>; maxBytes?: number }> = {
  "POST /api/orders": {
    sample: {
      idempotencyKey: "fuzz-key-1",
      clientReference: "fuzz-ref",
      item: { productId: "p1", variantId: "v1", quantity: 1, currency: "USD" },
      approvalReason: "fuzz reason",
    },
    kinds: {
      idempotencyKey: "code",
      clientReference: "text",
      "item.productId": "text",
      "item.variantId": "text",
      "item.quantity": "int",
      "item.currency": "code",
      approvalReason: "text",
    },
  },
  "POST /api/quotes": {
    sample: { productId: "p1", variantId: "v1", quantity: 1, currency: "USD" },
    kinds: { productId: "text", variantId: "text", quantity: "int", currency: "code" },
  },
  "POST /api/orders/[id]/reveal": {
    sample: { idempotencyKey: "fuzz-key-2", ticket: "T-1", reason: "the customer asked", password: "not-the-password" },
    kinds: { idempotencyKey: "code", ticket: "text", reason: "multiline", password: "text" },
  },
  "POST /api/bulk-orders": {
    sample: { fileName: "orders.csv", csv: "productId,variantId,quantity,clientReference\np1,v1,1,fuzz-bulk\n" },
    kinds: { fileName: "text", csv: "multiline" },
    maxBytes: 2 * 256 * 1024 + 4096,
  },
  "POST /api/staff/invitations": {
    sample: { email: "fuzz@example.com", name: "Fuzz", roles: ["viewer"] },
    kinds: { email: "code", name: "text", "roles.0": "enum" },
  },
  "PATCH /api/staff/[id]": { sample: { name: "Fuzz", active: true }, kinds: { name: "text", active: "bool" } },
  // A token of the right shape that no link has: every variant is refused before anything is stored.
  "POST /api/invitations/acceptance": {
    sample: { token: "F".repeat(43), password: "fuzz-password-123" },
    kinds: { token: "code", password: "text" },
  },
  "POST /api/password-resets/completion": {
    sample: { token: "F".repeat(43), password: "fuzz-password-123" },
    kinds: { token: "code", password: "text" },
  },
  "POST /api/session/proof": { sample: { method: "totp", code: "123456" }, kinds: { method: "enum", code: "code" } },
  "POST /api/account/second-factors/totp": { sample: { name: "Phone" }, kinds: { name: "text" } },
  "PATCH /api/account/second-factors/[id]": { sample: { name: "Work phone" }, kinds: { name: "text" } },
  "POST /api/account/second-factors/totp/confirmation": {
    sample: { factorId: "00000000-0000-4000-8000-000000000000", code: "123456" },
    kinds: { factorId: "code", code: "code" },
  },
  "POST /api/account/second-factors/passkeys": {
    sample: {
      name: "Laptop",
      response: {
        id: "AAAA",
        rawId: "AAAA",
        type: "public-key",
        response: { clientDataJSON: "AAAA", attestationObject: "AAAA", transports: ["internal"] },
        clientExtensionResults: {},
      },
    },
    kinds: {
      name: "text",
      "response.id": "code",
      "response.type": "enum",
      "response.response.clientDataJSON": "code",
      "response.response.attestationObject": "code",
      "response.response.transports.0": "text",
    },
  },
  "PUT /api/settings/second-factor-policy": { sample: { roles: ["admin"] }, kinds: { "roles.0": "enum" } },
  "PUT /api/settings/sso": { sample: { ssoOnly: false }, kinds: { ssoOnly: "bool" } },
  "PUT /api/settings": {
    sample: {
      revealQuotaPerHour: 20,
      lowBalance: { USD: "100.00" },
      orderConfirmationAmount: "500.00",
      payoutDetailsName: "Fuzz Ltd",
    },
    kinds: {
      revealQuotaPerHour: "int",
      "lowBalance.USD": "decimal",
      orderConfirmationAmount: "decimal",
      payoutDetailsName: "text",
    },
  },
  "POST /api/withdrawals": {
    sample: { amount: "10.00", currency: "USD", reason: "fuzz payout" },
    kinds: { amount: "decimal", currency: "code", reason: "multiline" },
  },
  "POST /api/settings/order-import": { sample: { action: "pause" }, kinds: { action: "enum" } },
  "PUT /api/account/notification-preferences": {
    sample: { emailKinds: ["orders.failed"], digest: "off", quietStart: "22:00", quietEnd: "07:00", timeZone: "Europe/Paris" },
    kinds: { "emailKinds.0": "enum", digest: "enum", quietStart: "code", quietEnd: "code", timeZone: "code" },
  },
  "POST /api/notifications/opened": { sample: { link: "/spend-approvals#sr_fuzz" }, kinds: { link: "code" } },
  "PUT /api/settings/notifications": {
    sample: {
      emailKinds: ["orders.failed"],
      digest: "hourly",
      quietStart: "",
      quietEnd: "",
      timeZone: "UTC",
      chatKinds: ["wallet.low_balance"],
      chatWebhookUrl: "",
    },
    kinds: { "emailKinds.0": "enum", digest: "enum", timeZone: "code", "chatKinds.0": "enum", chatWebhookUrl: "code" },
  },
  "POST /api/withdrawals/quotes": {
    sample: { amount: "10.00", currency: "USD" },
    kinds: { amount: "decimal", currency: "code" },
  },
  "POST /api/withdrawals/[id]/approval": { sample: { comment: "fine" }, kinds: { comment: "multiline" } },
  "POST /api/withdrawals/[id]/rejection": { sample: { comment: "not this month" }, kinds: { comment: "multiline" } },
  "POST /api/spend-requests/[id]/approval": { sample: { comment: "fine" }, kinds: { comment: "multiline" } },
  // Someone who is not on staff: refused, so a well-formed sample changes nothing.
  "PUT /api/books/delivery": {
    sample: { schedule: "monthly", format: "plain", recipientIds: ["00000000-0000-4000-8000-000000000000"] },
    kinds: { schedule: "enum", format: "enum", "recipientIds.0": "code" },
  },
  "POST /api/books/periods/[period]/reopen-request": { sample: { comment: "booked twice" }, kinds: { comment: "text" } },
  "POST /api/spend-requests/[id]/rejection": { sample: { comment: "not this quarter" }, kinds: { comment: "multiline" } },
  "PUT /api/spend-limits": {
    sample: { scope: "workspace", currency: "USD", perOrder: "100.00", perDay: "500.00", perMonth: "" },
    kinds: { scope: "code", currency: "code", perOrder: "decimal", perDay: "decimal", perMonth: "decimal" },
  },
  "POST /api/catalog/watches": {
    sample: { productType: "esim", brand: "Fuzz", countryCode: "MX", workspace: false },
    kinds: { productType: "enum", brand: "text", countryCode: "code", workspace: "bool" },
  },
  "POST /api/bulk-orders/[id]/confirm": { sample: { approvalReason: "partner launch" }, kinds: { approvalReason: "text" } },
  "POST /api/webhooks/service": {
    sample: {
      id: "00000000-0000-4000-8000-000000000000",
      type: "order.fulfilled",
      occurredAtUtc: "2026-01-01T00:00:00Z",
      data: { orderId: "o1" },
    },
    kinds: { id: "code", type: "code", occurredAtUtc: "date", "data.orderId": "text" },
    maxBytes: 256 * 1024,
  },
};

/** A well-formed value for a path parameter (a record that does not exist), by route prefix. */
export function pathSample(pattern: string, param: string): string {
  if (param.startsWith("...")) return pattern.includes("nextauth") ? "session" : "fuzz/unknown";
  if (pattern.startsWith("/api/withdrawals/")) return "wr_fuzz00000000";
  // A month that has not ended: it cannot be locked, so a well-formed request changes nothing.
  if (pattern.startsWith("/api/books/periods/")) return "2099-01";
  if (pattern.startsWith("/api/spend-requests/")) return "sr_fuzz000000000000";
  if (pattern.startsWith("/api/events/")) return "f".repeat(32);
  if (pattern.startsWith("/api/catalog/images/")) return "fuzz-image";
  if (pattern.startsWith("/api/orders/")) return "fuzz-order";
  return "00000000-0000-4000-8000-000000000000";
}

const OVERLONG = "a".repeat(5000);
/** Bad values for a field of a kind (JSON values; query strings use their String()). */
export function badValues(kind: Kind, where: "query" | "body"): unknown[] {
  const body = where === "body";
  const controls = ["x\u0000y", "x\u001by"];
  const surrogate = body ? ["x\ud800y"] : [];
  const wrongType = body ? [12345, { nested: "x" }] : [];
  switch (kind) {
    case "text":
      return [...controls, OVERLONG, "x\ny", ...surrogate, ...wrongType];
    case "multiline":
      return [...controls, "a".repeat(600_000), ...surrogate, ...wrongType];
    case "code":
    case "enum":
      return ["\u0000", "x\ny", "no such value!", ...(body ? ["\udc00", 12345] : [])];
    case "date":
      return ["0000-01-01", "10000-01-01", "2026-13-45", "\u0000"];
    case "cursor":
      return ["99999999999999999999", "9".repeat(400), "-1", "\u0000"];
    case "int":
      return body ? [1e308, -1, 1.5, "12"] : ["99999999999999999999", "-1", "1e400", "abc"];
    case "decimal":
      return body ? ["-1", "1e400", "x\u0000", 12.5] : ["-1", "1e400", "\u0000"];
    case "bool":
      return ["yes", 1, null];
  }
}

/**
 * What no browser sends, beside the routes' own inputs: the requests of issue 37, each of
 * which once answered 500 or a redirect to another origin.
 */

/** Methods sent with the asterisk-form target (`OPTIONS * HTTP/1.1`): raw, as fetch cannot. */
export const ASTERISK_METHODS = ["OPTIONS", "GET", "HEAD", "POST", "DELETE"];

/** Absolute-form targets (a request meant for a proxy) for a path of the app: raw too. */
export function absoluteFormTargets(path: string): string[] {
  return [
    `http://evil.example${path}`,
    `https://evil.example:8443${path}`,
    `http://user:pass@evil.example${path}`,
    `HTTP://EVIL.EXAMPLE${path}`,
  ];
}

/** `url` values for Next's image optimizer, besides every page and API path. */
export const IMAGE_URLS = [
  "/icon.svg",
  "/favicon.ico",
  "/_next/image?url=%2Ficon.svg&w=64&q=75",
  "http://evil.example/x.png",
  "//evil.example/x.png",
  "/%2e%2e/%2e%2e/etc/passwd",
  "",
];

/**
 * Router headers Next reads on a page request, with values its router never sends. Every
 * Next-Router-State-Tree below is one Next cannot read: the request gate refuses it (400).
 */
export const ROUTER_HEADERS: Record<string, string>[] = [
  { rsc: "1", "next-router-state-tree": "x" },
  { rsc: "1", "next-router-state-tree": "%ff" },
  { rsc: "1", "next-router-state-tree": encodeURIComponent('["x"]') },
  { rsc: "1", "next-router-state-tree": encodeURIComponent('["",{"children":1}]') },
  { rsc: "1", "next-router-state-tree": "null" },
  { rsc: "1", "next-router-prefetch": "1", "next-router-state-tree": "x" },
  { "next-router-state-tree": "x" },
  { rsc: "1", "next-router-segment-prefetch": "x" },
  { rsc: "1", "next-url": "/%ff" },
  { rsc: "1", "next-router-prefetch": "9" },
];
