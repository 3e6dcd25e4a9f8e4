/**
 * `npm run bench:lighthouse`: Lighthouse's performance score of every main page, signed in as
 * an admin, against the built app started as `npm start` starts it. Lighthouse 13 drives
 * Debian's Chromium (chrome-launcher, /usr/bin/chromium, headless) with its mobile preset
 * (a mid-range phone: simulated slow 4G and a CPU four times slower than this machine's);
 * BENCH_PRESET=desktop for its desktop preset. Each page is measured BENCH_RUNS times (default
 * 3) and the table shows the median run of each figure (score, Total Blocking Time, Cumulative
 * Layout Shift, Largest Contentful Paint) beside the targets (score ≥ 95, TBT < 200 ms, CLS <
 * 0.1), and every run. Exits 1 when a page's median misses one.
 *
 * The machine's floor is measured in the same sitting, first and last: an empty page of the
 * same layout (/forbidden: the shell, its navigation and a sentence), whose score is what this
 * machine and the framework allow any page here; a page close to it has little left to cut.
 *
 * The session cookie of an admin (signed in as a browser does, bench/lib/app-session.ts) goes
 * to Lighthouse as an extra header, so every page is measured as that person sees it; a
 * buyer places one order first, so there is an order page to measure. BENCH_PAGES=/,/wallet
 * measures only those (a product and an order page are `product` and `order`).
 *
 * BENCH_REPORTS=<folder> keeps each run's Lighthouse report (JSON) there, to see where the time went.
 *
 * Simulated throttling multiplies this machine's main-thread time, so TBT follows its load:
 * run it on a quiet machine, and read a failing TBT beside `uptime` and the floor. Each page
 * waits until the app's own processes are quiet (`quiet`), so their start-up work is not
 * charged to a page.
 *
 * Its own data folder and ports 3240/4670/25480 (BENCH_PORT, BENCH_SANDBOX_PORT, BENCH_DB_PORT).
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import os from "node:os";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig } from "lighthouse";
import { signIn, type Session } from "./lib/app-session";
import { launchApp, type LaunchedApp } from "./lib/launch-app";
import { cpuBetween, snapshotCpu } from "./lib/process-cpu";
import { benchNumber, benchPorts } from "./lib/setting";
import { seedStorefrontHistory } from "./lib/storefront-history";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNS = benchNumber("BENCH_RUNS", 3, { min: 1 });
const PRESET = process.env.BENCH_PRESET === "desktop" ? "desktop" : "mobile";
const PORTS = benchPorts({ app: 3240, sandbox: 4670, db: 25480 });
const PASSWORD = "bench-password-123";
const REPORTS = process.env.BENCH_REPORTS ? path.resolve(process.env.BENCH_REPORTS) : null;
/** A Lighthouse run takes 15-40 s here; one that takes this long is waiting on a wedged browser. */
const RUN_TIMEOUT_MS = 180_000;
const TARGET = { score: 95, tbtMs: 200, cls: 0.1 };
/** Storefront orders placed before the app existed, so the orders list and the home page have rows. */
const HISTORY_ORDERS = 300;
/** The empty page of the same layout: the floor every page is read beside. */
const FLOOR: [string, string] = ["floor: /forbidden (empty page, same layout)", "/forbidden"];

type Run = { score: number; tbtMs: number; cls: number; lcpMs: number };

async function main() {
  await rm(path.join(ROOT, ".data/bench-lighthouse"), { recursive: true, force: true });
  const app = await launchApp({ dataDir: ".data/bench-lighthouse", ports: PORTS, demoPassword: PASSWORD });
  const chrome = await launchChrome();
  let failed = false;
  try {
    await seedStorefrontHistory(`http://127.0.0.1:${PORTS.sandbox}`, HISTORY_ORDERS);
    const pages = await pagesToMeasure(app.baseUrl);
    const admin = await signIn(app.baseUrl, "admin@demo.local", PASSWORD);
    console.log(
      `\nLighthouse ${PRESET} preset, ${RUNS} run(s) a page, median run shown; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores\n`,
    );
    console.log("| page | performance | TBT ms | CLS | LCP ms | every run (score/TBT/CLS) |\n|---|---|---|---|---|---|");
    for (const [label, target] of [FLOOR, ...pages, FLOOR]) {
      const floor = target === FLOOR[1];
      await warm(app.baseUrl, target, admin);
      await quiet(app);
      const runs: Run[] = [];
      let unmeasured = 0;
      for (let i = 0; i < RUNS; i++) {
        const run = await measure(`${app.baseUrl}${target}`, chrome, admin.cookie, `${reportName(label, target)}-${i + 1}`);
        if (run) runs.push(run);
        else unmeasured++;
      }
      if (runs.length === 0) {
        failed ||= !floor;
        console.log(`| ${label} | not measured | | | | Chromium recorded no trace in ${RUNS} run(s) **MISS** |`);
        continue;
      }
      const median = {
        score: middle(runs.map((r) => r.score)),
        tbtMs: middle(runs.map((r) => r.tbtMs)),
        cls: middle(runs.map((r) => r.cls)),
        lcpMs: middle(runs.map((r) => r.lcpMs)),
      };
      const misses =
        !floor && (unmeasured > 0 || median.score < TARGET.score || median.tbtMs >= TARGET.tbtMs || median.cls >= TARGET.cls);
      failed ||= misses;
      const every = [
        ...runs.map((r) => `${r.score}/${Math.round(r.tbtMs)}/${r.cls.toFixed(3)}`),
        ...Array.from({ length: unmeasured }, () => "no trace"),
      ].join(", ");
      console.log(
        `| ${label} | ${Math.round(median.score)} | ${Math.round(median.tbtMs)} | ${median.cls.toFixed(3)} | ${Math.round(median.lcpMs)} | ${every}${misses ? " **MISS**" : ""} |`,
      );
    }
    console.log(
      `\ntargets: median performance ≥ ${TARGET.score}, TBT < ${TARGET.tbtMs} ms, CLS < ${TARGET.cls} (the floor is not judged); load average now ${os.loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    chrome.current.kill();
    await app.stop();
  }
  if (failed) process.exitCode = 1;
}

/**
 * One unmeasured visit first: the page, its pictures and its static files as the server answers
 * them warm (its catalog and image caches filled from the upstream, and Next's static files kept
 * compressed by the edge, lib/edge/static-files.ts, as they are for everyone after the first
 * visitor). A server's first answer after it starts is not what Lighthouse measures here; the
 * server's own time is bench:cpu's and bench:pages'.
 */
async function warm(baseUrl: string, target: string, admin: Session) {
  const page = await admin.get(target);
  const pictures = new Set(page.body.match(/\/api\/catalog\/images\/[\w-]+/g) ?? []);
  await Promise.all([...pictures].map((src) => admin.get(src)));
  // Each app process keeps its own copy, and hands out connections in turn: one new connection
  // per process for each file.
  const files = new Set(page.body.match(/\/_next\/static\/[\w./-]+/g) ?? []);
  for (let i = 0; i < os.availableParallelism(); i++) {
    for (const file of files) await getOnNewConnection(`${baseUrl}${file}`);
  }
}

function getOnNewConnection(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { "accept-encoding": "zstd, gzip" } }, (res) => {
        res.resume();
        res.on("end", resolve);
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The app's own background work (below) is this small a share of one core when it is quiet. */
const QUIET_SHARE = 0.05;
const QUIET_WAIT_MS = 90_000;

/**
 * Waits until the app's processes (web, worker, database, sandbox) have been quiet for a second:
 * right after it starts, the worker mirrors the 300 seeded orders and runs its first jobs, and a
 * page measured meanwhile was charged for that work (the first two pages measured swung from
 * 97 to 84 with it). Gives up after QUIET_WAIT_MS and measures anyway, saying so.
 */
async function quiet(app: LaunchedApp) {
  for (const deadline = Date.now() + QUIET_WAIT_MS; Date.now() < deadline;) {
    const before = snapshotCpu(app.pgid);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const busyMs = cpuBetween(before, snapshotCpu(app.pgid)).reduce((sum, p) => sum + p.ms, 0);
    if (busyMs / (performance.now() - started) < QUIET_SHARE) return;
  }
  console.warn(`(the app was still busy after ${QUIET_WAIT_MS / 1000} s; measured anyway)`);
}

type Browser = { current: chromeLauncher.LaunchedChrome };

async function launchChrome(): Promise<Browser> {
  const current = await chromeLauncher.launch({
    chromePath: "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
  return { current };
}

async function measure(url: string, chrome: Browser, cookie: string, name: string): Promise<Run | null> {
  const lhr = await lighthouseRun(url, chrome, cookie);
  if (!lhr) return null;
  if (REPORTS) {
    await mkdir(REPORTS, { recursive: true });
    await writeFile(path.join(REPORTS, `${name}.json`), JSON.stringify(lhr));
  }
  // A page that answered the sign-in page instead would score well and mean nothing.
  if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
    throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}: the session was not accepted`);
  }
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbtMs: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    lcpMs: metric("largest-contentful-paint"),
  };
}

/**
 * One Lighthouse run; a run whose trace Chromium failed to record (NO_NAVSTART and the like,
 * which Lighthouse itself answers with "run Lighthouse again"; on a busy machine, about one run in
 * five here) is run again, four times at most; null if none recorded one.
 */
async function lighthouseRun(url: string, chrome: Browser, cookie: string) {
  for (let attempt = 1; ; attempt++) {
    const outcome = await withTimeout(
      lighthouse(
        url,
        {
          port: chrome.current.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance"],
          extraHeaders: { Cookie: cookie },
        },
        PRESET === "desktop" ? desktopConfig : undefined,
      ),
      RUN_TIMEOUT_MS,
    );
    let error: string;
    if (outcome === "timeout") {
      // Seen once on a loaded machine: Lighthouse waited on Chromium for minutes. A new browser.
      error = `no answer in ${RUN_TIMEOUT_MS / 1000} s`;
      chrome.current.kill();
      chrome.current = (await launchChrome()).current;
    } else {
      if (!outcome) throw new Error(`Lighthouse gave no result for ${url}`);
      if (!outcome.lhr.runtimeError) return outcome.lhr;
      error = outcome.lhr.runtimeError.code;
    }
    if (attempt === 5) {
      console.warn(`(${url}: ${error} in ${attempt} attempts: not measured)`);
      return null;
    }
    console.warn(`(${url}: ${error}, measured again)`);
  }
}

/** The median (of an even count of runs, the mean of the two middle ones). */
function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

function reportName(label: string, target: string): string {
  if (target === FLOOR[1]) return "floor";
  return label === "/" ? "home" : label.replace(/^\//, "").replace(/\W+/g, "_");
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The main pages of app/(app) an admin opens, with a real product and a real order (placed by a
 * buyer). Bulk orders are a buyer's page: an admin is shown Forbidden there.
 */
async function pagesToMeasure(baseUrl: string): Promise<[string, string][]> {
  const buyer = await signIn(baseUrl, "buyer@demo.local", PASSWORD);
  const productId = await firstProduct(buyer);
  const orderId = await placeOrder(buyer);
  const all: [string, string][] = [
    ["/", "/"],
    ["/catalog", "/catalog"],
    ["product", `/catalog/${productId}`],
    ["/orders", "/orders"],
    ["order", `/orders/${orderId}`],
    ["/wallet", "/wallet"],
    ["/wallet/reconciliation", "/wallet/reconciliation"],
    ["/withdrawals", "/withdrawals"],
    ["/spend-approvals", "/spend-approvals"],
    ["/spend-limits", "/spend-limits"],
    ["/reports", "/reports"],
    ["/reports/journal", "/reports/journal"],
    ["/audit", "/audit"],
    ["/events", "/events"],
    ["/staff", "/staff"],
    ["/settings", "/settings"],
  ];
  const only = process.env.BENCH_PAGES?.split(",").map((p) => p.trim());
  return only ? all.filter(([label]) => only.includes(label)) : all;
}

type Product = { id: string; type: string; currency: string; isAvailable: boolean; variants: { id: string }[] };

async function firstProduct(session: Session): Promise<string> {
  const res = await session.get("/api/catalog/products?size=24");
  if (res.status !== 200) throw new Error(`the catalog answered ${res.status}`);
  return (JSON.parse(res.body) as { items: Product[] }).items[0]!.id;
}

async function placeOrder(session: Session): Promise<string> {
  const res = await session.get("/api/catalog/products?size=100&category=gift-card");
  const product = (JSON.parse(res.body) as { items: Product[] }).items.find((p) => p.isAvailable && p.variants.length > 0);
  if (!product) throw new Error("no gift card to order in the sandbox catalog");
  const placed = await session.post("/api/orders", {
    idempotencyKey: crypto.randomUUID(),
    clientReference: "bench-lighthouse",
    item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
  });
  if (!placed.ok) throw new Error(`placing an order answered ${placed.status}: ${await placed.text()}`);
  const id = ((await placed.json()) as { order: { id: string } }).order.id;
  // Measured once final: an open order's page follows it live, and its moves would be measured too.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
    const { status } = JSON.parse((await session.get(`/api/orders/${id}`)).body) as { status: string };
    if (status !== "reserved" && status !== "processing") return id;
  }
  throw new Error(`order ${id} was still open a minute after it was placed`);
}

await main();
