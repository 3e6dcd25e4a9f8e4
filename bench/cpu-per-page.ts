/**
 * `npm run bench:cpu`: CPU milliseconds the app's processes spend per page view, page by page,
 * read from /proc (Linux) around BENCH_VIEWS (default 400) sequential views of each page by one
 * signed-in buyer, after BENCH_WARM_UP (default 300) views of that page. CPU time rather than
 * wall time, so the figure holds on a busy machine. /proc counts CPU in 10 ms ticks per
 * process: a few hundred views are needed before a share between two apps is good to a few
 * per cent (docs/decisions/2026-11-28-telemetry.md). Its own data folder and ports
 * 3220/4650/25460; WEB_CONCURRENCY as set.
 *
 * It measures a page view of a server that has been serving, so the warm-up is long: each app
 * process compiles a page's code over its first views (V8's JIT, on threads whose CPU counts
 * here), and with two processes that takes a few hundred views. Measured alone on 2026-11-26,
 * this app's mean was 21.6 ms a view after 5 views to warm up (this bench's number until then),
 * 12.3 after 100 and 10.8 after 300; the app of `2fb9d0b` (one process) was 22.5–24.8 after 100
 * and 23.3 after 300.
 *
 * BENCH_AGAINST=<another built checkout> (e.g. a worktree of an older commit, after
 * `next build` there) starts that app too (ports 3221/4651/25461) and takes both apps' views
 * by turns of BENCH_TURN (default 20) views, warm-up included: this machine's speed drifts by
 * a fifth within an hour, and views taken by turns see the same machine. The turns are short
 * because a Node process left idle for seconds has V8 shrink its heap ("Mark-Compact (reduce)"
 * in --trace-gc) and its next views cost more: 40 views after 8 s idle took 17–29 ms each
 * against 14–16 ms without the pause. It then prints this checkout's mean as a share of the
 * other's.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { signIn, type Session } from "./lib/app-session";
import { checkoutsToMeasure, type Checkout } from "./lib/compare-checkouts";
import { launchApp, type LaunchedApp } from "./lib/launch-app";
import { cpuBetween, snapshotCpu } from "./lib/process-cpu";
import { benchNumber } from "./lib/setting";

const ROOT = path.resolve(import.meta.dirname, "..");
const VIEWS = benchNumber("BENCH_VIEWS", 400, { min: 1 });
const WARM_UP = benchNumber("BENCH_WARM_UP", 300);
const TURN = benchNumber("BENCH_TURN", 20, { min: 1 });
const PASSWORD = "bench-password-123";

type Subject = { label: string; app: LaunchedApp; session: Session; pages: string[] };
type Tally = { appMs: number; others: Map<string, number>; bytes: number };

async function start({ root, label, portOffset: offset, dataDir, env }: Checkout): Promise<Subject> {
  await rm(path.join(root, dataDir), { recursive: true, force: true });
  const app = await launchApp({
    root,
    dataDir,
    ports: { app: 3220 + offset, db: 25460 + offset, sandbox: 4650 + offset },
    demoPassword: PASSWORD,
    env,
  });
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
  return { label, app, session, pages };
}

/** `views` views of `page`, adding their CPU (per process role) to `tally`. */
async function measure(s: Subject, page: string, views: number, tally: Tally) {
  const before = snapshotCpu(s.app.pgid);
  for (let i = 0; i < views; i++) {
    const res = await s.session.get(page);
    if (res.status !== 200) throw new Error(`${page} answered ${res.status}`);
    tally.bytes = res.body.length;
  }
  for (const p of cpuBetween(before, snapshotCpu(s.app.pgid))) {
    if (p.role === "app") tally.appMs += p.ms;
    else tally.others.set(p.role, (tally.others.get(p.role) ?? 0) + p.ms);
  }
}

async function main() {
  const subjects: Subject[] = [];
  try {
    for (const checkout of checkoutsToMeasure(ROOT, ".data/bench-cpu")) subjects.push(await start(checkout));
    // Alone, all of a page's views at once; by turns, TURN views of each app in turn (see above).
    const rounds = subjects.length > 1 ? Math.ceil(VIEWS / TURN) : 1;
    const perRound = Math.ceil(VIEWS / rounds);
    const views = perRound * rounds;
    const pageCount = Math.min(...subjects.map((s) => s.pages.length));
    const tallies = subjects.map(() => [] as Tally[]);
    for (let p = 0; p < pageCount; p++) {
      // Warm: compiled code and caches, in turns as well.
      for (let done = 0; done < WARM_UP; done += TURN)
        for (const s of subjects) for (let i = done; i < Math.min(WARM_UP, done + TURN); i++) await s.session.get(s.pages[p]!);
      const perSubject = subjects.map(() => ({ appMs: 0, others: new Map<string, number>(), bytes: 0 }));
      for (let r = 0; r < rounds; r++)
        for (const [i, s] of subjects.entries()) await measure(s, s.pages[p]!, perRound, perSubject[i]!);
      perSubject.forEach((t, i) => tallies[i]!.push(t));
    }
    const means: number[] = [];
    for (const [i, s] of subjects.entries()) {
      if (s.label) console.log(`\n${s.label}`);
      console.log("\n| page | CPU ms per view (app processes) | other processes | HTML/JSON bytes |\n|---|---|---|---|");
      let total = 0;
      let htmlPages = 0;
      for (const [p, t] of tallies[i]!.entries()) {
        const page = s.pages[p]!;
        const appMs = t.appMs / views;
        const others = [...t.others]
          .filter(([, ms]) => ms / views >= 0.1)
          .map(([role, ms]) => `${role} ${(ms / views).toFixed(1)}`)
          .join(", ");
        if (!page.startsWith("/api/")) {
          total += appMs;
          htmlPages += 1;
        }
        console.log(
          `| ${page.replace(/[0-9a-f-]{20,}|prd_\w+/i, "<id>")} | ${appMs.toFixed(1)} | ${others || "—"} | ${t.bytes} |`,
        );
      }
      means.push(total / htmlPages);
      console.log(`\nMean over the pages: ${(total / htmlPages).toFixed(1)} ms of app CPU per page view (${views} views each).`);
    }
    if (means.length > 1)
      console.log(
        `\nThis checkout's mean is ${((100 * means[0]!) / means[1]!).toFixed(0)}% of the other's (views taken by turns of ${TURN}, after ${WARM_UP} of each page to warm up).`,
      );
  } finally {
    await Promise.all(subjects.map((s) => s.app.stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
