/**
 * `npm run bench:instances`: two app instances and one worker on one real PostgreSQL,
 * against the sandbox at its real limit of 120 requests a minute, with 50 staff (half on
 * each instance) browsing for BENCH_SECONDS (default 150, so at least two whole minutes).
 * The budget is shared only through the database, so this is the proof that it holds
 * across processes: the upstream's own count (GET /_sandbox/rate-limit, per rate window)
 * must stay at or under 120 in every minute, with 0 answers of 429 and 0 errors seen by staff.
 * Prints each minute's count and exits 1 when any of the three does not hold.
 *
 * To press the budget (browsing alone, well cached, stays far below the limit), the
 * workspace holds BENCH_SEED_ORDERS (default 20,000) orders from before the app existed,
 * and the worker imports them as fast as it is let (ORDERS_IMPORT_CALLS_PER_MINUTE=600,
 * at background priority) while people browse: three processes want more than 120 calls
 * a minute, and only the budget in the database stands between them and a 429.
 *
 * Ports of its own: apps 3316 and 3317, sandbox 4716, PostgreSQL 26616. The app is built
 * first if the build is missing or older than the sources (as `npm start` does).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { buildIsStale } from "../scripts/lib/build-freshness";
import { signIn, type Session } from "./lib/app-session";
import { startRealPostgres } from "./lib/real-postgres";
import { spawnSandbox } from "./sandbox/spawn";
import { benchNumber } from "./lib/setting";

const ROOT = path.resolve(import.meta.dirname, "..");
const APP_PORTS = [3316, 3317];
const SANDBOX_PORT = 4716;
const DB_PORT = 26616;
const LIMIT = 120;
const SECONDS = benchNumber("BENCH_SECONDS", 150, { min: 1 });
const STAFF = benchNumber("BENCH_STAFF", 50, { min: 1 });
const PASSWORD = "bench-password-123";
const SEED_ORDERS = benchNumber("BENCH_SEED_ORDERS", 20_000);
const ROLES = ["buyer", "support", "viewer", "finance", "approver", "admin"];

type Window = { workspace: string; startUtc: string; accepted: number; rateLimited: number };

async function main(): Promise<void> {
  const database = startRealPostgres(DB_PORT);
  const children: ChildProcess[] = [];
  const webhookSecret = `svcwh_${randomBytes(24).toString("hex")}`;
  const sandbox = await spawnSandbox({
    SANDBOX_PORT: String(SANDBOX_PORT),
    SANDBOX_RATE_LIMIT: String(LIMIT),
    SANDBOX_FULFILMENT_DELAY_MS: "500",
    // The upstream's events go to the first instance; the worker processes them.
    SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${APP_PORTS[0]}/api/webhooks/service`,
    SANDBOX_WEBHOOK_SECRET: webhookSecret,
  });
  try {
    if (SEED_ORDERS > 0) await seedHistory(sandbox.baseUrl);
    const shared = {
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("hex"),
      SERVICE_BASE_URL: sandbox.baseUrl,
      SERVICE_API_KEY: sandbox.apiKey,
      SERVICE_WEBHOOK_SECRETS: webhookSecret,
      SERVICE_RATE_LIMIT: String(LIMIT),
      ORDERS_IMPORT_CALLS_PER_MINUTE: "600",
      NODE_ENV: "production" as const,
      LOCAL_MODE: "0",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      CHECKPOINT_DISABLE: "1",
    };
    Object.assign(process.env, shared); // for the migration and the staff seeded below, before any app module loads
    const { migrate } = await import("@/lib/db/migrate");
    await migrate(database.url, path.join(ROOT, "prisma/migrations"));
    await (await import("@/lib/staff/seed-demo")).seedDemoStaff(PASSWORD);
    if (buildIsStale(ROOT)) {
      console.log("building the app…");
      if (spawnSync(path.join(ROOT, "node_modules/.bin/next"), ["build"], { cwd: ROOT, stdio: "inherit" }).status !== 0)
        throw new Error("the build failed");
    }

    const env = (port: number) => {
      const url = `http://localhost:${port}`;
      return { ...process.env, ...shared, PORT: String(port), APP_URL: url, NEXTAUTH_URL: url };
    };
    const tsx = path.join(ROOT, "node_modules/.bin/tsx");
    children.push(
      spawn(tsx, ["--conditions=react-server", "scripts/worker.ts"], { cwd: ROOT, stdio: "inherit", env: env(APP_PORTS[0]!) }),
    );
    for (const port of APP_PORTS)
      children.push(spawn(process.execPath, ["scripts/serve-app.mjs"], { cwd: ROOT, stdio: "inherit", env: env(port) }));
    const bases = APP_PORTS.map((port) => `http://localhost:${port}`);
    await Promise.all(bases.map(waitForHealth));

    console.log(`two instances and a worker ready; signing in ${STAFF} staff, half on each…`);
    const people: { session: Session; base: string }[] = [];
    for (let i = 0; i < STAFF; i++) {
      const base = bases[i % bases.length]!;
      people.push({ session: await signIn(base, `${ROLES[i % ROLES.length]}@demo.local`, PASSWORD), base });
    }
    const sites = await siteMap(people[0]!.session);

    const limitedBefore = (await rateLimit(sandbox.baseUrl)).rateLimitedSinceStart;
    const times: number[] = [];
    let userErrors = 0;
    let resent = 0;
    const deadline = Date.now() + SECONDS * 1000;
    console.log(`browsing for ${SECONDS} s…`);
    await Promise.all(
      people.map(async ({ session }) => {
        await sleep(Math.random() * 1000);
        while (Date.now() < deadline) {
          const page = sites[Math.floor(Math.random() * sites.length)]!;
          // A keep-alive connection the server closed just as it was reused is retried once, as a browser does.
          const res = await session.get(page).catch(() => {
            resent += 1;
            return session.get(page).catch(() => ({ status: 0, ms: 0, body: "" }));
          });
          times.push(res.ms);
          if (
            res.status === 0 ||
            res.status >= 400 ||
            /data-testid="catalog-error"|The Issuing Service is not answering/.test(res.body)
          )
            userErrors += 1;
          await sleep(500 + Math.random() * 1000); // about a second between pages, as people do
        }
      }),
    );

    const after = await rateLimit(sandbox.baseUrl);
    const { db } = await import("@/lib/db/client");
    const budget = await db().rateBudget.findMany({ orderBy: { windowStart: "asc" } });
    const imported = await db().orderSync.findFirst({ select: { importOrders: true, importState: true } });
    const windows = after.windows.filter((w) => w.workspace === "ws_default");
    const busiest = Math.max(0, ...windows.map((w) => w.accepted));
    const limited = after.rateLimitedSinceStart - limitedBefore;
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]?.toFixed(0) ?? "-";
    console.log("\n| minute (upstream's window) | calls the upstream let through | 429s | slots the apps took (RateBudget) |");
    console.log("|---|---|---|---|");
    for (const w of windows) {
      const slots = budget.find((b) => b.windowStart.toISOString() === w.startUtc)?.used ?? "-";
      console.log(`| ${w.startUtc} | ${w.accepted} | ${w.rateLimited} | ${slots} |`);
    }
    console.log("\n| measure | value |\n|---|---|");
    console.log(`| app instances / workers / database | ${APP_PORTS.length} / 1 / PostgreSQL (real) |`);
    console.log(`| staff (split across the instances) | ${STAFF} for ${SECONDS} s |`);
    console.log(
      `| page views served | ${times.length} (${(times.length / SECONDS).toFixed(1)}/s), p50 ${q(0.5)} ms, p95 ${q(0.95)} ms |`,
    );
    console.log(`| most upstream calls in one minute | ${busiest} (limit ${LIMIT}) |`);
    console.log(
      `| 429s from the upstream while browsing | ${limited} (${after.rateLimitedSinceStart} since the sandbox started) |`,
    );
    console.log(`| errors seen by staff | ${userErrors} (pages asked again after a dropped keep-alive connection: ${resent}) |`);
    console.log(
      `| history import meanwhile | ${imported?.importOrders ?? 0} of ${SEED_ORDERS} orders (${imported?.importState ?? "not started"}) |`,
    );
    const held = busiest <= LIMIT && after.rateLimitedSinceStart === 0 && userErrors === 0;
    console.log(held ? "\nthe shared budget held across both instances" : "\nTHE SHARED BUDGET DID NOT HOLD");
    process.exitCode = held ? 0 : 1;
  } finally {
    await Promise.all(children.map(stop));
    await sandbox.stop();
    database.stop();
  }
}

/** Pages a person moves between: catalog pages, products, the orders list and a few real orders. */
async function siteMap(session: Session): Promise<string[]> {
  const res = await session.get("/api/catalog/products?size=100");
  type Product = { id: string; type: string; currency: string; isAvailable: boolean; variants: { id: string }[] };
  const products = (JSON.parse(res.body) as { items: Product[] }).items.slice(0, 40);
  const orders: string[] = [];
  for (const p of products.filter((x) => x.isAvailable && x.variants.length > 0).slice(0, 6)) {
    const placed = await session.post("/api/orders", {
      idempotencyKey: crypto.randomUUID(),
      clientReference: `instances-${orders.length}`,
      item: { productId: p.id, variantId: p.variants[0]!.id, quantity: 1, currency: p.currency },
      // A top-up is bought for a phone; without the number the order is rightly refused (400).
      ...(p.type === "phone-top-up" ? { phoneNumber: "+447700900123" } : {}),
    });
    if (!placed.ok) throw new Error(`placing an order for ${p.id} answered ${placed.status}: ${await placed.text()}`);
    orders.push(((await placed.json()) as { order: { id: string } }).order.id);
  }
  const catalog = ["/catalog", "/catalog?page=2", "/catalog?page=3", "/catalog?category=gift-card", "/catalog?category=esim"];
  return [...catalog, ...products.map((p) => `/catalog/${p.id}`), "/orders", ...orders.map((id) => `/orders/${id}`)];
}

/** The storefront's history: orders the workspace placed before the back-office was installed. */
async function seedHistory(sandboxUrl: string): Promise<void> {
  const res = await fetch(`${sandboxUrl}/_sandbox/orders/seed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count: SEED_ORDERS, referencePrefix: "storefront-" }),
  });
  if (!res.ok) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  console.log(`seeded ${SEED_ORDERS} orders placed before the app existed`);
}

async function rateLimit(sandboxUrl: string): Promise<{ rateLimitedSinceStart: number; windows: Window[] }> {
  return (await (await fetch(`${sandboxUrl}/_sandbox/rate-limit`)).json()) as {
    rateLimitedSinceStart: number;
    windows: Window[];
  };
}

async function waitForHealth(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error(`${base} did not start`);
    await sleep(300);
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
