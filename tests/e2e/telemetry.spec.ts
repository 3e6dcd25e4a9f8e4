import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { DEMO_PASSWORD } from "../../playwright.config";
import { startOwnApp, type OwnApp } from "./own-app";
import { signedInPage } from "./helpers";

/**
 * OpenTelemetry (issue 52, item 3), on an app of this spec's own started with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointed at an OTLP/HTTP receiver of this spec (JSON, loopback)
 * and METRICS_TOKEN set: an order's trace runs from its route through the database to the
 * upstream; the metrics move as orders are placed and refused, codes revealed and sign-ins
 * fail; /metrics answers the same names to the token only; and nothing exported carries a
 * secret, a code or an email. The shared app (no METRICS_TOKEN) answers /metrics 404.
 */
const PORT = 3321;
const RECEIVER_PORT = 4770;
const SANDBOX_PORT = 4771;
const DATA_DIR = ".data/e2e-telemetry";
const METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";

type KeyValue = { key: string; value: Record<string, unknown> };
type Span = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[] };
type DataPoint = { attributes?: KeyValue[]; asInt?: string | number; asDouble?: number };
type Metric = { name: string; sum?: { dataPoints: DataPoint[] }; gauge?: { dataPoints: DataPoint[] } };

const received: { path: string; body: string }[] = [];
let receiver: Server;
let app: OwnApp | undefined;

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(RECEIVER_PORT, "127.0.0.1", resolve));
  app = await startOwnApp({
    port: PORT,
    dbPort: 25621,
    sandboxPort: SANDBOX_PORT,
    dataDir: DATA_DIR,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${RECEIVER_PORT}`,
      OTEL_METRIC_EXPORT_INTERVAL: "1000",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      METRICS_TOKEN,
    },
  });
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const value = (kv: KeyValue) => Object.values(kv.value)[0];
const attribute = (item: { attributes?: KeyValue[] }, key: string) => {
  const found = item.attributes?.find((kv) => kv.key === key);
  return found ? value(found) : undefined;
};

function spans(): Span[] {
  return received
    .filter((r) => r.path === "/v1/traces")
    .flatMap((r) => (JSON.parse(r.body) as { resourceSpans: { scopeSpans: { spans?: Span[] }[] }[] }).resourceSpans)
    .flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans ?? []));
}

/** The latest export of each metric (the SDK exports cumulative values). */
function latestMetrics(): Map<string, Metric> {
  const latest = new Map<string, Metric>();
  for (const r of received.filter((r) => r.path === "/v1/metrics")) {
    const body = JSON.parse(r.body) as { resourceMetrics: { scopeMetrics: { metrics: Metric[] }[] }[] };
    for (const m of body.resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics))) latest.set(m.name, m);
  }
  return latest;
}

/** A metric's value summed over the points whose attributes include `match`. */
function metricValue(name: string, match: Record<string, string> = {}): number {
  const metric = latestMetrics().get(name);
  const points = metric?.sum?.dataPoints ?? metric?.gauge?.dataPoints ?? [];
  return points
    .filter((p) => Object.entries(match).every(([k, v]) => attribute(p, k) === v))
    .reduce((total, p) => total + Number(p.asInt ?? p.asDouble ?? 0), 0);
}

type Product = { id: string; type: string; currency: string; isAvailable: boolean; variants?: { id: string; price: number }[] };

async function cheapProduct(request: APIRequestContext): Promise<Product> {
  const listed = await request.get("/api/catalog/products?size=24&page=1");
  expect(listed.status(), await listed.text()).toBe(200);
  const products = (await listed.json()) as { items: Product[] };
  return products.items.find((p) => p.isAvailable && p.type === "gift-card" && p.variants?.length && p.variants[0]!.price < 50)!;
}

async function placeOrder(request: APIRequestContext, reference: string, product?: Product) {
  const item = product ?? (await cheapProduct(request));
  return request.post("/api/orders", {
    headers: { origin: app!.origin },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: reference,
      item: { productId: item.id, variantId: item.variants![0]!.id, quantity: 1, currency: item.currency },
    },
  });
}

const sandbox = (method: string, route: string, body: unknown) =>
  fetch(`http://127.0.0.1:${SANDBOX_PORT}/_sandbox${route}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

let orderId = "";
const revealed: string[] = [];

test("an order's trace runs from its route through the database to the upstream, with the role and no person", async ({
  browser,
}) => {
  const buyer = await signedInPage(browser, "buyer", { baseURL: app!.origin });
  const placed = await placeOrder(buyer.request, "e2e-telemetry-1");
  expect(placed.status(), await placed.text()).toBe(201);
  orderId = ((await placed.json()) as { order: { id: string } }).order.id;

  const orderTrace = () => {
    const all = spans();
    const route = all.find((s) => attribute(s, "http.route") === "/api/orders" && /POST/.test(s.name) && s.kind === 2);
    if (!route) return null;
    const inTrace = all.filter((s) => s.traceId === route.traceId);
    return {
      database: inTrace.filter(
        (s) => attribute(s, "db.system") === "postgresql" || attribute(s, "db.system.name") === "postgresql",
      ),
      upstream: inTrace.filter(
        (s) => s.kind === 3 && String(attribute(s, "url.full") ?? "").includes(`:${SANDBOX_PORT}/api/v1/orders`),
      ),
      role: inTrace.map((s) => attribute(s, "app.role")).find(Boolean),
    };
  };
  await expect
    .poll(() => Math.min(orderTrace()?.upstream.length ?? 0, orderTrace()?.database.length ?? 0), { timeout: 30_000 })
    .toBeGreaterThan(0);
  const trace = orderTrace()!;
  expect(trace.role).toBe("buyer");
  // Statements, never their parameters.
  const statements = trace.database
    .map((s) => attribute(s, "db.query.text") ?? attribute(s, "db.statement"))
    .filter(Boolean)
    .join("\n");
  expect(statements).toContain("$1");
  expect(statements).not.toMatch(/@demo\.local/);
});

test("the metrics move as orders are placed and refused, the upstream answers 429, codes are revealed and sign-ins fail", async ({
  browser,
}) => {
  await expect.poll(() => metricValue("dgis_orders_placed"), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  await expect
    .poll(() => metricValue("dgis_upstream_calls", { endpoint: "/api/v1/orders", class: "money" }), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(1);
  // The gauges are exported even while nothing waits (the budget of the minute).
  expect(latestMetrics().has("dgis_upstream_budget_limit")).toBe(true);

  // The sandbox's wallet in the product's currency is emptied: the next order is refused by the upstream.
  const buyer = await signedInPage(browser, "buyer", { baseURL: app!.origin });
  const product = await cheapProduct(buyer.request);
  expect((await sandbox("PUT", "/wallet", { balances: { [product.currency]: 0 } })).status).toBe(200);
  const refused = await placeOrder(buyer.request, "e2e-telemetry-2", product);
  expect(refused.status(), await refused.text()).toBeGreaterThanOrEqual(400);
  expect((await sandbox("PUT", "/wallet", { balances: { [product.currency]: 100_000 } })).status).toBe(200);
  await expect.poll(() => metricValue("dgis_orders_failed"), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

  // The upstream answers one catalog read 429: the call is counted under its status, then retried.
  expect((await sandbox("PUT", "/faults", { rateLimitedRate: 1, maxFaults: 1, pathPrefix: "/api/v1/products" })).status).toBe(
    200,
  );
  expect((await buyer.request.get("/api/catalog/products?size=24&page=2")).status()).toBe(200);
  await expect
    .poll(() => metricValue("dgis_upstream_calls", { endpoint: "/api/v1/products", status: "429" }), { timeout: 30_000 })
    .toBe(1);

  // A support person reveals the first order's codes.
  await expect
    .poll(async () => JSON.stringify(await (await buyer.request.get(`/api/orders/${orderId}`)).json()), { timeout: 30_000 })
    .toContain('"fulfilled"');
  const support = await signedInPage(browser, "support", { baseURL: app!.origin });
  const reveal = await support.request.post(`/api/orders/${orderId}/reveal`, {
    headers: { origin: app!.origin },
    data: { idempotencyKey: crypto.randomUUID(), ticket: "T-1", reason: "customer lost the email", password: DEMO_PASSWORD },
  });
  expect(reveal.status(), await reveal.text()).toBe(200);
  revealed.push(...((await reveal.json()) as { artifacts: { value: string }[] }).artifacts.map((a) => a.value));
  expect(revealed.length).toBeGreaterThan(0);
  await expect.poll(() => metricValue("dgis_reveals"), { timeout: 30_000 }).toBe(1);

  // Six wrong passwords for one account: the fifth failure locks it, the sixth try meets the lock.
  const stranger = await (await browser.newContext({ baseURL: app!.origin })).newPage();
  for (let i = 0; i < 6; i++) {
    await stranger.goto("/signin");
    await stranger.getByLabel("Email").fill("viewer@demo.local");
    await stranger.getByLabel("Password").fill(`wrong-password-${i}`);
    await stranger.getByRole("button", { name: "Sign in" }).click();
    await expect(stranger.getByTestId("sign-in-error")).toContainText("Email or password is incorrect");
  }
  await expect.poll(() => metricValue("dgis_sign_in_failures", { reason: "wrong_password" }), { timeout: 30_000 }).toBe(5);
  await expect.poll(() => metricValue("dgis_sign_in_failures", { reason: "locked" }), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => metricValue("dgis_lockouts", { locked: "account" }), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => metricValue("dgis_sign_in_locks_active", { kind: "email" }), { timeout: 30_000 }).toBe(1);
  // The worker that exports these is running, and none died.
  expect(metricValue("dgis_workers_running", {})).toBe(1);
  expect(metricValue("dgis_worker_deaths_last_hour", {})).toBe(0);
});

test("/metrics answers the same metrics as Prometheus text, to the token only", async ({ request }) => {
  const origin = app!.origin;
  expect((await fetch(`${origin}/metrics`)).status).toBe(401);
  expect((await fetch(`${origin}/metrics`, { headers: { authorization: "Bearer not-the-token-at-all" } })).status).toBe(401);
  const scrape = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(scrape.status).toBe(200);
  expect(scrape.headers.get("content-type")).toContain("text/plain");
  const text = await scrape.text();
  const exported = [...latestMetrics().keys()].filter((name) => name.startsWith("dgis_"));
  expect(exported.length).toBeGreaterThanOrEqual(15);
  for (const name of exported) {
    const prometheusName = latestMetrics().get(name)!.sum ? `${name}_total` : name;
    expect(text, prometheusName).toContain(`# TYPE ${prometheusName} `);
  }
  expect(text).toMatch(/^dgis_orders_placed_total 1$/m);
  expect(text).toMatch(/^dgis_reveals_total 1$/m);
  received.push({ path: "/metrics", body: text });

  // The shared app has no METRICS_TOKEN: there is nothing at /metrics.
  expect((await request.get("/metrics")).status()).toBe(404);
});

test("no exported span or metric carries a secret, a code or an email", async () => {
  const read = (name: string) => readFile(path.join(DATA_DIR, name), "utf8").then((text) => text.trim());
  const scopedKeys = JSON.stringify(JSON.parse(await read("sandbox-scoped-keys.json"))).match(/svckey_[A-Za-z0-9_]+/g) ?? [];
  const secrets = [
    await read("auth-secret"),
    await read("second-factor-key"),
    await read("sandbox-api-key"),
    await read("sandbox-webhook-secret"),
    ...scopedKeys,
    DEMO_PASSWORD,
    METRICS_TOKEN,
    ...revealed,
  ];
  expect(scopedKeys.length).toBeGreaterThan(0);
  expect(received.filter((r) => r.path === "/v1/traces").length).toBeGreaterThan(0);
  for (const { path: where, body } of received) {
    for (const secret of secrets) expect(body.includes(secret), `a secret in ${where}`).toBe(false);
    expect(body, `an email in ${where}`).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i);
  }
});
