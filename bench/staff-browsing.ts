/**
 * `npm run bench:browsing`: 50 simulated staff browse catalog and order pages for 2
 * minutes (BENCH_SECONDS, BENCH_STAFF to change) against the sandbox at its real limit of
 * 120 requests a minute. Prints page views served, upstream calls made, 429s the upstream
 * answered and errors users saw (must be 0), and p50/p95 page times. First one person alone
 * browses the same page mix (BENCH_ALONE_VIEWS, default 60): the load's p95 ÷ that p95 is the
 * figure to keep at 2× or under. CPU per page view, per process, from /proc (Linux).
 *
 * Starts the app exactly as `npm start` does, on a fresh data folder, ports 3200/4630/25440,
 * on its embedded database, or with BENCH_POSTGRES=1 on a throw-away PostgreSQL (Debian's,
 * port 25441) as an operator's DATABASE_URL would have it.
 * The workspace already holds BENCH_SEED_ORDERS (default 5,000) orders placed "before the
 * app existed" (seeded into the sandbox's state file first), so the history import runs in
 * the background during the browsing; its progress is printed with the figures.
 */
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { signIn, type Session } from "./lib/app-session";
import { launchApp } from "./lib/launch-app";
import { cpuBetween, snapshotCpu } from "./lib/process-cpu";
import { spawnSandbox } from "./sandbox/spawn";
import { benchNumber } from "./lib/setting";
import { startRealPostgres } from "./lib/real-postgres";

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = 3200;
const SANDBOX_PORT = 4630;
const DB_PORT = 25440;
const BASE = `http://localhost:${PORT}`;
const SECONDS = benchNumber("BENCH_SECONDS", 120, { min: 1 });
const STAFF = benchNumber("BENCH_STAFF", 50, { min: 1 });
const ALONE_VIEWS = benchNumber("BENCH_ALONE_VIEWS", 60, { min: 1 });
const PASSWORD = "bench-password-123";
const SEED_ORDERS = benchNumber("BENCH_SEED_ORDERS", 5000);
const POSTGRES = process.env.BENCH_POSTGRES === "1";
const EMBEDDED_URL = `postgresql://postgres:postgres@127.0.0.1:${DB_PORT}/postgres?sslmode=disable`;
const THINK_MS = 1000; // each person pauses about a second between pages, as people do

type View = { status: number; ms: number; body: string };

async function main() {
  await rm(path.join(ROOT, ".data/bench"), { recursive: true, force: true });
  await seedHistory();
  const database = POSTGRES ? startRealPostgres(DB_PORT + 1) : null;
  const databaseUrl = database?.url ?? EMBEDDED_URL;
  const app = await launchApp({
    dataDir: ".data/bench",
    ports: { app: PORT, db: DB_PORT, sandbox: SANDBOX_PORT },
    demoPassword: PASSWORD,
    env: {
      SANDBOX_RATE_LIMIT: "120",
      SANDBOX_FULFILMENT_DELAY_MS: "500",
      ...(database ? { DATABASE_URL: database.url, DEMO_ACCOUNTS: "1" } : {}),
    },
  }).catch((error: unknown) => {
    database?.stop();
    throw error;
  });
  try {
    console.log(`database: ${database ? "PostgreSQL (BENCH_POSTGRES=1)" : "embedded PGlite"}`);
    console.log(`app ready; signing in ${STAFF} staff…`);
    const roles = ["buyer", "support", "viewer", "finance", "approver", "admin"];
    const sessions: Session[] = [];
    for (let i = 0; i < STAFF; i++) sessions.push(await signIn(BASE, `${roles[i % roles.length]}@demo.local`, PASSWORD));
    const products = await sampleProducts(sessions[0]!);
    const productIds = products.map((p) => p.id);
    const orderIds = await placeSomeOrders(sessions[0]!, products);
    const pages = (i: number) => {
      const r = (n: number) => Math.floor(Math.random() * n);
      const choices = [
        `/catalog`,
        `/catalog?page=${1 + r(5)}`,
        `/catalog?category=${["gift-card", "esim", "top-up"][r(3)]}`,
        `/catalog/${productIds[r(productIds.length)]}`,
        `/orders`,
        orderIds.length ? `/orders/${orderIds[r(orderIds.length)]}` : "/orders",
      ];
      return choices[(i + r(choices.length)) % choices.length]!;
    };
    const isError = (res: View) =>
      res.status >= 400 || /data-testid="catalog-error"|The Issuing Service is not answering/.test(res.body);

    // One person alone, the same page mix, no pause: the server's own time per page. Every page
    // of the mix is read once first, so both runs see the app's caches as warm as a busy minute does.
    for (let i = 0; i < 12; i++) await sessions[0]!.get(pages(i));
    const alone: number[] = [];
    for (let i = 0; i < ALONE_VIEWS; i++) alone.push((await sessions[0]!.get(pages(i))).ms);

    const importBefore = await importProgress(databaseUrl);
    const budgetBefore = await upstreamCalls(databaseUrl);
    const cpuBefore = snapshotCpu(app.pgid);
    const times: number[] = [];
    let userErrors = 0;
    const deadline = Date.now() + SECONDS * 1000;
    console.log(`browsing for ${SECONDS} s…`);
    await Promise.all(
      sessions.map(async (session, i) => {
        await sleep(Math.random() * THINK_MS);
        while (Date.now() < deadline) {
          const res = await session.get(pages(i));
          times.push(res.ms);
          if (isError(res)) userErrors += 1;
          await sleep(THINK_MS * (0.5 + Math.random()));
        }
      }),
    );
    const cpu = cpuBetween(cpuBefore, snapshotCpu(app.pgid));
    const calls = (await upstreamCalls(databaseUrl)) - budgetBefore;
    const importAfter = await importProgress(databaseUrl);
    const views = times.length;
    const load = percentiles(times);
    const one = percentiles(alone);
    const perView = (ms: number) => (ms / Math.max(1, views)).toFixed(1);
    const appCpu = cpu.filter((p) => p.role === "app");
    console.log("\n| measure | value |\n|---|---|");
    console.log(`| simulated staff | ${STAFF} |`);
    console.log(`| duration | ${SECONDS} s |`);
    console.log(`| page views served | ${views} (${(views / SECONDS).toFixed(1)}/s) |`);
    console.log(`| upstream calls made | ${calls} (${((calls / SECONDS) * 60).toFixed(0)}/min against a limit of 120/min) |`);
    console.log(`| page views per upstream call | ${(views / Math.max(1, calls)).toFixed(1)} |`);
    console.log(
      `| history import (${SEED_ORDERS} seeded orders) | ${importBefore.orders} orders / ${importBefore.pages} pages before browsing → ${importAfter.orders} / ${importAfter.pages} after (${importAfter.state}) |`,
    );
    console.log(`| 429s from the upstream | ${app.upstream429()} |`);
    console.log(`| errors seen by users | ${userErrors} |`);
    console.log(`| page time p50 / p95 under load | ${load.p50} ms / ${load.p95} ms |`);
    console.log(`| same page mix, one person alone, p50 / p95 (${alone.length} views) | ${one.p50} ms / ${one.p95} ms |`);
    console.log(`| p95 under load ÷ p95 alone (goal ≤ 2) | ${(load.p95 / Math.max(1, one.p95)).toFixed(2)} |`);
    console.log(
      `| app CPU per page view (${appLabel(appCpu)}) | ${perView(appCpu.reduce((sum, p) => sum + p.ms, 0))} ms (${appCpu.map((p) => perView(p.ms) + (p.primary ? " primary" : "")).join(" + ")}) |`,
    );
    for (const p of cpu.filter((p) => p.role !== "app"))
      console.log(`| ${p.role} (pid ${p.pid}) CPU per page view | ${perView(p.ms)} ms |`);
  } finally {
    await app.stop();
    database?.stop();
  }
}

/** "2 app processes and the cluster primary": the primary only hands out connections, so it is not counted as serving. */
function appLabel(appCpu: { primary?: boolean }[]): string {
  const serving = appCpu.filter((p) => !p.primary).length;
  return `${serving} app process${serving === 1 ? "" : "es"}${appCpu.some((p) => p.primary) ? " and the cluster primary" : ""}`;
}

function percentiles(values: number[]): { p50: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
  return { p50: q(0.5), p95: q(0.95) };
}

type BenchProduct = { id: string; currency: string; isAvailable: boolean; variants: { id: string }[] };

async function sampleProducts(session: Session): Promise<BenchProduct[]> {
  const res = await session.get("/api/catalog/products?size=100");
  return (JSON.parse(res.body) as { items: BenchProduct[] }).items.slice(0, 40);
}

/** A few real orders, so that order pages have something to show. */
async function placeSomeOrders(session: Session, products: BenchProduct[]): Promise<string[]> {
  const ids: string[] = [];
  for (const product of products.filter((p) => p.isAvailable && p.variants.length > 0).slice(0, 10)) {
    const productId = product.id;
    const res = await fetch(`${BASE}/api/orders`, {
      method: "POST",
      headers: { cookie: session.cookie, origin: BASE, "content-type": "application/json" },
      body: JSON.stringify({
        idempotencyKey: crypto.randomUUID(),
        clientReference: `bench-${ids.length}`,
        item: { productId, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
      }),
    });
    if (res.ok) ids.push(((await res.json()) as { order: { id: string } }).order.id);
  }
  return ids;
}

async function upstreamCalls(databaseUrl: string): Promise<number> {
  return Number((await query(databaseUrl, `SELECT coalesce(sum(used), 0) AS n FROM "RateBudget"`))[0]!.n);
}

async function importProgress(databaseUrl: string): Promise<{ orders: number; pages: number; state: string }> {
  const row = (await query(databaseUrl, `SELECT "importOrders", "importPages", "importState" FROM "OrderSync" LIMIT 1`))[0];
  return {
    orders: Number(row?.importOrders ?? 0),
    pages: Number(row?.importPages ?? 0),
    state: String(row?.importState ?? "not started"),
  };
}

async function query(databaseUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** The storefront's history: orders in the sandbox's state file before the app first starts. */
async function seedHistory() {
  if (SEED_ORDERS <= 0) return;
  await mkdir(path.join(ROOT, ".data/bench"), { recursive: true });
  const stateFile = path.join(ROOT, ".data/bench/sandbox-state.json");
  const sandbox = await spawnSandbox({ SANDBOX_PORT: "0", SANDBOX_STATE_FILE: stateFile });
  try {
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/orders/seed`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: SEED_ORDERS, referencePrefix: "storefront-" }),
    });
    if (!res.ok) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
    // The state is written shortly after a change: stop only once the newest seeded order is on disk.
    const newest = ((await res.json()) as { ids: string[] }).ids.at(-1)!;
    const deadline = Date.now() + 60_000;
    while (!(await readFile(stateFile, "utf8").catch(() => "")).includes(newest)) {
      if (Date.now() > deadline) throw new Error("the seeded orders were not written to the sandbox's state file");
      await sleep(200);
    }
  } finally {
    await sandbox.stop();
  }
  console.log(`seeded ${SEED_ORDERS} orders placed before the app existed`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
