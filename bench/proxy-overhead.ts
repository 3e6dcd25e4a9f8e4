/**
 * `npm run bench:proxy`: what the app adds to an uncached catalog read. The sandbox answers
 * every product read 100 ms late (its latency fault, BENCH_LATENCY_MS to change); the same
 * catalog page is read BENCH_READS times (default 60) one after another through the app
 * (`/api/catalog/products`, a signed-in person, the catalog cache off:
 * SERVICE_CATALOG_TTL_SECONDS=0) and directly from the sandbox with the key, and the ratio of
 * the two is printed (goal ≤ 1.1). Its own data folder and ports 3210/4640/25450.
 *
 * BENCH_AGAINST=<another built checkout> (e.g. a worktree of an older commit, after
 * `next build` there) starts that app too, with its own sandbox, and takes the reads of both
 * by turns: two runs a minute apart can differ by a few hundredths on this kind of machine,
 * while reads taken by turns see the same machine. Ports 3211/4641/25451 for it.
 *
 * BENCH_PORT_SHIFT=<n> adds n to every port, for a machine where those are taken.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { signIn, type Session } from "./lib/app-session";
import { checkoutsToMeasure, type Checkout } from "./lib/compare-checkouts";
import { launchApp, type LaunchedApp } from "./lib/launch-app";
import { benchNumber } from "./lib/setting";

const ROOT = path.resolve(import.meta.dirname, "..");
const READS = benchNumber("BENCH_READS", 60, { min: 1 });
const LATENCY_MS = benchNumber("BENCH_LATENCY_MS", 100);
const PASSWORD = "bench-password-123";
const API_KEY = "svckey_benchproxy_NotASecretOnlyForTheBenchmark0123456789";
const QUERY = "limit=24&offset=0";
const PORT_SHIFT = benchNumber("BENCH_PORT_SHIFT", 0, { max: 30_000 });

type Subject = { label: string; app: LaunchedApp; sandbox: string; session?: Session; direct: number[]; through: number[] };

async function start({ root, label, portOffset, dataDir }: Checkout): Promise<Subject> {
  const offset = portOffset + PORT_SHIFT;
  await rm(path.join(root, dataDir), { recursive: true, force: true });
  const app = await launchApp({
    root,
    dataDir,
    ports: { app: 3210 + offset, db: 25450 + offset, sandbox: 4640 + offset },
    demoPassword: PASSWORD,
    env: {
      SANDBOX_API_KEY: API_KEY,
      // The budget is still taken in the database for every read; only its size is out of the way.
      SANDBOX_RATE_LIMIT: "100000",
      SERVICE_RATE_LIMIT: "100000",
      SERVICE_CATALOG_TTL_SECONDS: "0",
    },
  });
  return { label, app, sandbox: `http://127.0.0.1:${4640 + offset}`, direct: [], through: [] };
}

async function main() {
  const subjects: Subject[] = [];
  try {
    const checkouts = checkoutsToMeasure(ROOT, ".data/bench-proxy");
    for (const checkout of checkouts) subjects.push(await start(checkout));
    for (const s of subjects) {
      s.session = await signIn(s.app.baseUrl, "buyer@demo.local", PASSWORD);
      const faults = await fetch(`${s.sandbox}/_sandbox/faults`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ latencyMs: LATENCY_MS, pathPrefix: "/api/v1/products" }),
      });
      if (!faults.ok) throw new Error(`the sandbox refused the latency setting: ${faults.status}`);
    }

    const direct = async (s: Subject) => {
      const started = performance.now();
      const res = await fetch(`${s.sandbox}/api/v1/products?${QUERY}`, { headers: { "X-Api-Key": API_KEY } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`direct read answered ${res.status}`);
      return performance.now() - started;
    };
    const throughApp = async (s: Subject) => {
      const res = await s.session!.get(`/api/catalog/products?size=24&page=1`);
      if (res.status !== 200) throw new Error(`read through the app answered ${res.status}`);
      return res.ms;
    };
    // Warm both paths (connections, the app's compiled routes), then alternate so both see the same machine.
    for (let i = 0; i < 20; i++)
      for (const s of subjects) await Promise.all([direct(s), throughApp(s)].map((p) => p.catch(() => 0)));
    for (let i = 0; i < READS; i++)
      for (const s of subjects) {
        s.direct.push(await direct(s));
        s.through.push(await throughApp(s));
      }
    for (const s of subjects) {
      const d = summary(s.direct);
      const a = summary(s.through);
      if (s.label) console.log(`\n${s.label}`);
      console.log("\n| measure | direct at the sandbox | through the app | ratio (goal ≤ 1.1) |\n|---|---|---|---|");
      console.log(`| median | ${d.p50.toFixed(1)} ms | ${a.p50.toFixed(1)} ms | ${(a.p50 / d.p50).toFixed(3)} |`);
      console.log(`| mean | ${d.mean.toFixed(1)} ms | ${a.mean.toFixed(1)} ms | ${(a.mean / d.mean).toFixed(3)} |`);
      console.log(`| p95 | ${d.p95.toFixed(1)} ms | ${a.p95.toFixed(1)} ms | ${(a.p95 / d.p95).toFixed(3)} |`);
    }
    console.log(
      `\n${READS} reads each, upstream latency ${LATENCY_MS} ms, catalog cache off${checkouts.length > 1 ? "; the two apps' reads taken by turns" : ""}.`,
    );
  } finally {
    await Promise.all(subjects.map((s) => s.app.stop()));
  }
}

function summary(values: number[]) {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), mean: sorted.reduce((s, v) => s + v, 0) / sorted.length };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
