/**
 * `npm run bench:cpu`: CPU milliseconds the app's processes spend per page view, page by page,
 * read from /proc (Linux) around BENCH_VIEWS (default 40) sequential views of each page by one
 * signed-in buyer, after a warm-up. CPU time rather than wall time, so the figure holds on a
 * busy machine. Its own data folder and ports 3220/4650/25460; WEB_CONCURRENCY as set.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { signIn } from "./lib/app-session";
import { launchApp } from "./lib/launch-app";
import { cpuBetween, snapshotCpu } from "./lib/process-cpu";

const ROOT = path.resolve(import.meta.dirname, "..");
const VIEWS = Number(process.env.BENCH_VIEWS ?? 40);
const PASSWORD = "bench-password-123";

async function main() {
  await rm(path.join(ROOT, ".data/bench-cpu"), { recursive: true, force: true });
  const app = await launchApp({
    dataDir: ".data/bench-cpu",
    ports: { app: 3220, db: 25460, sandbox: 4650 },
    demoPassword: PASSWORD,
  });
  try {
    const session = await signIn(app.baseUrl, "buyer@demo.local", PASSWORD);
    const products = JSON.parse((await session.get("/api/catalog/products?size=24")).body) as { items: { id: string }[] };
    const orders = JSON.parse((await session.get("/api/orders")).body) as { items?: { id: string }[] };
    const pages = [
      "/catalog",
      `/catalog/${products.items[0]!.id}`,
      "/orders",
      ...(orders.items?.[0] ? [`/orders/${orders.items[0].id}`] : []),
      "/api/catalog/products?size=24",
    ];
    console.log("\n| page | CPU ms per view (app processes) | other processes | HTML/JSON bytes |\n|---|---|---|---|");
    let total = 0;
    for (const page of pages) {
      for (let i = 0; i < 5; i++) await session.get(page); // warm: compiled code, caches
      const before = snapshotCpu(app.pgid);
      let bytes = 0;
      for (let i = 0; i < VIEWS; i++) {
        const res = await session.get(page);
        if (res.status !== 200) throw new Error(`${page} answered ${res.status}`);
        bytes = res.body.length;
      }
      const cpu = cpuBetween(before, snapshotCpu(app.pgid));
      const appMs = cpu.filter((p) => p.role === "app").reduce((sum, p) => sum + p.ms, 0) / VIEWS;
      const others = cpu
        .filter((p) => p.role !== "app" && p.ms / VIEWS >= 0.1)
        .map((p) => `${p.role} ${(p.ms / VIEWS).toFixed(1)}`)
        .join(", ");
      if (!page.startsWith("/api/")) total += appMs;
      console.log(`| ${page.replace(/[0-9a-f-]{20,}|prd_\w+/i, "<id>")} | ${appMs.toFixed(1)} | ${others || "—"} | ${bytes} |`);
    }
    console.log(
      `\nMean over the pages: ${(total / pages.filter((p) => !p.startsWith("/api/")).length).toFixed(1)} ms of app CPU per page view (${VIEWS} views each).`,
    );
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
