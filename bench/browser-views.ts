/**
 * `npm run bench:browser`: what one page view costs the server when a person opens it in a
 * real browser (Debian's Chromium), not just its HTML: the requests the page makes to the app
 * (the document, React Server Component fetches, link prefetches, API calls; not static files
 * or product images, which the browser caches), and the app processes' CPU per view, from
 * /proc. Each page of the mix is opened BENCH_VIEWS times (default 10) as a fresh navigation,
 * after a warm-up, and counted until the network is idle. Signed in as a buyer. Its own data
 * folder and ports 3230/4660/25470; WEB_CONCURRENCY as set.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { launchApp } from "./lib/launch-app";
import { cpuBetween, snapshotCpu } from "./lib/process-cpu";
import { benchNumber } from "./lib/setting";

const ROOT = path.resolve(import.meta.dirname, "..");
const VIEWS = benchNumber("BENCH_VIEWS", 10, { min: 1 });
const PASSWORD = "bench-password-123";
const SETTLE_MS = 300; // after network idle, for prefetches scheduled once the page is in view

async function main() {
  await rm(path.join(ROOT, ".data/bench-browser"), { recursive: true, force: true });
  const app = await launchApp({
    dataDir: ".data/bench-browser",
    ports: { app: 3230, db: 25470, sandbox: 4660 },
    demoPassword: PASSWORD,
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signIn(page, app.baseUrl);
    const requests: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.origin !== app.baseUrl) return;
      if (url.pathname.startsWith("/_next/static") || url.pathname.startsWith("/api/catalog/images")) return;
      if (url.pathname.endsWith(".svg") || url.pathname === "/favicon.ico") return;
      requests.push(`${r.headers()["next-router-prefetch"] ? "prefetch" : "request"} ${url.pathname}`);
    });

    const productHref = await firstProductHref(page, app.baseUrl);
    const pages = ["/", "/catalog", "/catalog?page=2", productHref, "/orders"];
    console.log(
      `\n| page (${VIEWS} browser views each) | requests to the app per view | of which prefetches | app CPU ms per view |\n|---|---|---|---|`,
    );
    for (const target of pages) {
      for (let i = 0; i < 3; i++) await view(page, app.baseUrl + target); // warm: compiled code, caches
      requests.length = 0;
      const before = snapshotCpu(app.pgid);
      for (let i = 0; i < VIEWS; i++) await view(page, app.baseUrl + target);
      const cpu = cpuBetween(before, snapshotCpu(app.pgid));
      const appMs = cpu.filter((p) => p.role === "app").reduce((sum, p) => sum + p.ms, 0) / VIEWS;
      const prefetches = requests.filter((r) => r.startsWith("prefetch")).length;
      console.log(
        `| ${target.replace(/prd_\w+/, "<id>")} | ${(requests.length / VIEWS).toFixed(1)} | ${(prefetches / VIEWS).toFixed(1)} | ${appMs.toFixed(1)} |`,
      );
    }
  } finally {
    await browser.close();
    await app.stop();
  }
}

async function signIn(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/signin`);
  await page.fill('input[name="email"]', "buyer@demo.local");
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
}

/** A fresh navigation (not a client-side one), counted until the network has been idle a moment. */
async function view(page: Page, url: string) {
  const res = await page.goto(url);
  if (!res || res.status() !== 200) throw new Error(`${url} answered ${res?.status()}`);
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(SETTLE_MS);
}

async function firstProductHref(page: Page, baseUrl: string): Promise<string> {
  await view(page, `${baseUrl}/catalog`);
  const href = await page.getByTestId("product-card").first().getAttribute("href");
  if (!href) throw new Error("the catalog shows no product");
  return href;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
