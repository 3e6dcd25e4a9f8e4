/**
 * `npm run bench:weight`: what the home page and the catalog ship to a browser and make it run,
 * for an admin, a finance person and a buyer: the HTML's bytes (uncompressed, and as sent),
 * of which React Server Component payload (the `self.__next_f.push` scripts that hydration
 * reads), the JavaScript files the page loads, the share of their bytes that ran (Chromium's
 * coverage), and the main thread's script time, style and layout time, and blocking time (the part of each task over
 * 50 ms, Lighthouse's TBT) with the CPU slowed four times, as Lighthouse's mobile preset does.
 * Byte counts do not depend on the machine's load; the times do (median of BENCH_RUNS views,
 * default 3, after one warm-up view).
 *
 * The sandbox's history is seeded as bench:lighthouse seeds it (300 storefront orders), so the
 * home pages have rows, and the database with a busy hour of upstream calls (every minute of
 * the admin's budget chart has its bars).
 * BENCH_AGAINST=<another built checkout> measures that one too, by turns (bench/lib/compare-checkouts.ts),
 * on the ports plus one. BENCH_KEEP=<folder> keeps each page's HTML there.
 *
 * Its own data folder and ports 3250/4680/25490 (BENCH_PORT, BENCH_SANDBOX_PORT, BENCH_DB_PORT).
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { signIn } from "./lib/app-session";
import { checkoutsToMeasure, type Checkout } from "./lib/compare-checkouts";
import { launchApp, type LaunchedApp } from "./lib/launch-app";
import { benchNumber, benchPorts } from "./lib/setting";
import { seedStorefrontHistory } from "./lib/storefront-history";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNS = benchNumber("BENCH_RUNS", 3, { min: 1 });
const PORTS = benchPorts({ app: 3250, sandbox: 4680, db: 25490 });
const PASSWORD = "bench-password-123";
const KEEP = process.env.BENCH_KEEP ? path.resolve(process.env.BENCH_KEEP) : null;
const ROLES = ["admin", "finance", "buyer"] as const;
const PAGES = ["/", "/catalog"];
/** Lighthouse's mobile preset slows the CPU this many times. */
const CPU_SLOWDOWN = 4;

type View = { jsFiles: number; jsKb: number; jsRanKb: number; scriptMs: number; layoutMs: number; blockingMs: number };

type Subject = { label: string; app: LaunchedApp; ports: typeof PORTS };

async function start({ root, label, portOffset, dataDir }: Checkout): Promise<Subject> {
  await rm(path.join(root, dataDir), { recursive: true, force: true });
  const ports = { app: PORTS.app + portOffset, sandbox: PORTS.sandbox + portOffset, db: PORTS.db + portOffset };
  const app = await launchApp({ root, dataDir, ports, demoPassword: PASSWORD });
  await seedStorefrontHistory(`http://127.0.0.1:${ports.sandbox}`, 300);
  await seedBusyHour(ports.db);
  return { label, app, ports };
}

async function main() {
  const subjects: Subject[] = [];
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
  });
  try {
    for (const checkout of checkoutsToMeasure(ROOT, ".data/bench-weight")) subjects.push(await start(checkout));
    // The worker mirrors the seeded orders (upstream calls the budget chart counts) meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    console.log(
      `\n| role | page | HTML KB | of which RSC payload KB | client modules named | HTML KB sent (zstd) | JS files | JS KB | JS KB run | script ms (4× CPU) | style and layout ms (4× CPU) | blocking ms (4× CPU) |\n|---|---|---|---|---|---|---|---|---|---|---|---|`,
    );
    for (const role of ROLES) {
      const signedIn = await Promise.all(subjects.map((s) => signedInAs(browser, s.app.baseUrl, role)));
      for (const target of PAGES) {
        // By turns: each checkout's page, then the next's, so that the machine's load falls on both.
        for (const [i, { label, app }] of subjects.entries()) {
          const { session, context } = signedIn[i]!;
          const html = await session.get(target);
          if (html.status !== 200) throw new Error(`${target} answered ${html.status} to ${role}`);
          if (KEEP) {
            await mkdir(KEEP, { recursive: true });
            await writeFile(path.join(KEEP, `${i}-${role}${target.replace(/\W+/g, "_")}.html`), html.body);
          }
          const sent = await sentBytes(`${app.baseUrl}${target}`, session.cookie);
          await view(context, `${app.baseUrl}${target}`); // warm: the server's caches, compiled code
          const views: View[] = [];
          for (let run = 0; run < RUNS; run++) views.push(await view(context, `${app.baseUrl}${target}`));
          const v = views[0]!;
          const rsc = rscPayload(html.body);
          console.log(
            `| ${role} | ${target}${label ? ` (${label})` : ""} | ${kb(html.body.length)} | ${kb(rsc.chars)} | ${rsc.clientModules} | ${kb(sent)} | ${v.jsFiles} | ${v.jsKb.toFixed(0)} | ${v.jsRanKb.toFixed(0)} | ${median(views.map((x) => x.scriptMs)).toFixed(0)} | ${median(views.map((x) => x.layoutMs)).toFixed(0)} | ${median(views.map((x) => x.blockingMs)).toFixed(0)} |`,
          );
        }
      }
      await Promise.all(signedIn.map(({ context }) => context.close()));
    }
  } finally {
    await browser.close();
    for (const s of subjects) await s.app.stop();
  }
}

/** A phone-sized browser context carrying the role's session cookie, and the session for plain reads. */
async function signedInAs(browser: Browser, baseUrl: string, role: string) {
  const session = await signIn(baseUrl, `${role}@demo.local`, PASSWORD);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.addCookies(
    session.cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name: name!, value: value.join("="), url: baseUrl };
    }),
  );
  return { session, context };
}

/** The flight data inlined in the HTML for hydration: its characters, and the client modules it names. */
function rscPayload(html: string): { chars: number; clientModules: number } {
  let chars = 0;
  let payload = "";
  for (const [, script] of html.matchAll(/<script[^>]*>self\.__next_f\.push\((.*?)\)<\/script>/gs)) {
    chars += script!.length;
    payload += script;
  }
  // A client component's module is a row `<id>:I[…]` (escaped inside the pushed strings).
  return { chars, clientModules: payload.match(/(?:^|\\n)[0-9a-f]+:I\[/g)?.length ?? 0 };
}

/** The HTML's bytes on the wire, compressed as a browser asks (Node's fetch would decode them). */
function sentBytes(url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { cookie, "accept-encoding": "zstd, gzip" } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => resolve(bytes));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** One fresh navigation with the CPU slowed, until the network is idle. */
async function view(context: BrowserContext, url: string): Promise<View> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await cdp.send("Performance.enable");
  await page.addInitScript(() => {
    const w = window as unknown as { __blocking: number };
    w.__blocking = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__blocking += Math.max(0, entry.duration - 50);
    }).observe({ type: "longtask", buffered: true });
  });
  await page.coverage.startJSCoverage({ resetOnNavigation: false, reportAnonymousScripts: false });
  const res = await page.goto(url);
  if (!res || res.status() !== 200) throw new Error(`${url} answered ${res?.status()}`);
  await page.waitForLoadState("networkidle");
  const coverage = await page.coverage.stopJSCoverage();
  const metrics = (await cdp.send("Performance.getMetrics")).metrics;
  const seconds = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  const blockingMs = await page.evaluate(() => (window as unknown as { __blocking: number }).__blocking);
  await page.close();
  const files = coverage.filter((c) => c.url.includes("/_next/static/"));
  let jsBytes = 0;
  let ranBytes = 0;
  for (const file of files) {
    jsBytes += file.source?.length ?? 0;
    ranBytes += ranLength(file.source ?? "", file.functions);
  }
  return {
    jsFiles: files.length,
    jsKb: jsBytes / 1024,
    jsRanKb: ranBytes / 1024,
    scriptMs: seconds("ScriptDuration") * 1000,
    layoutMs: (seconds("LayoutDuration") + seconds("RecalcStyleDuration")) * 1000,
    blockingMs,
  };
}

type Functions = { ranges: { startOffset: number; endOffset: number; count: number }[] }[];

/**
 * Bytes of a script that ran: V8's block coverage nests ranges (a function, the blocks in it),
 * and the innermost range around a byte says whether it ran, so ranges are painted outer first.
 */
function ranLength(source: string, functions: Functions): number {
  const ran = new Uint8Array(source.length);
  const ranges = functions.flatMap((fn) => fn.ranges).sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  for (const range of ranges) ran.fill(range.count > 0 ? 1 : 0, range.startOffset, range.endOffset);
  return ran.reduce((sum, byte) => sum + byte, 0);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Calls in every minute of the last hour, of every class, as a busy hour leaves the admin's
 * budget chart (60 stacked bars); a freshly started app has sent only a handful.
 */
async function seedBusyHour(dbPort: number): Promise<void> {
  const client = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres?sslmode=disable`,
  });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO "UpstreamCallMinute" (minute, priority, outcome, count)
      SELECT date_trunc('minute', now()) - make_interval(mins => m), p, 'ok', 3 + (m * 7 + length(p) * 5) % 40
      FROM generate_series(0, 59) AS m, unnest(ARRAY['money', 'interactive', 'background']) AS p
      ON CONFLICT (minute, priority, outcome) DO UPDATE SET count = "UpstreamCallMinute".count + EXCLUDED.count`);
  } finally {
    await client.end();
  }
}

await main();
