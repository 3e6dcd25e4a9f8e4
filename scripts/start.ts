/**
 * `npm start`: starts what is not configured, migrates, and serves the app.
 * - DATABASE_URL unset → embedded PostgreSQL (PGlite) under DATA_DIR (default .data/),
 *   served on loopback, and demo staff accounts (local mode).
 * - AUTH_SECRET unset → generated once under DATA_DIR (refused in production mode).
 * Then builds the app if the build is missing or older than the sources, and serves it
 * with scripts/serve-app.mjs (Next in production mode, or dev mode with --dev) as a child.
 * It supervises the worker (README, "Supervision and stopping"): started again when it stops
 * unexpectedly, given up at the fifth crash with no healthy minute between (then everything
 * stops and this exits 1, for the supervisor above to act). SIGTERM/SIGINT stop the app server
 * and the worker together, each finishing its work, then the rest; exit 0.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { loadLocalConfig, type LocalConfig } from "./lib/local-config";
import { buildIsStale } from "./lib/build-freshness";
import { processEnvironments, tsxCommand } from "./lib/child-env";
import { explainStartupError } from "./lib/explain-startup-error";
import { superviseChild } from "./lib/supervise-child";
import { waitForFreePort } from "./lib/wait-for-port";
import { watchLaunchAncestors } from "./lib/watch-launch-ancestors";

const dev = process.argv.includes("--dev");
const root = path.resolve(import.meta.dirname, "..");

let launched: LocalConfig | null = null;
let stopApp: (() => void) | null = null;

/** The worker's own bound on handing back its jobs is 15 s (scripts/worker.ts); this is the launcher's, above it. */
const WORKER_STOP_GRACE_MS = 20_000;

// `kill -9` of npm alone would leave this launcher and its children running, holding the data
// folder and the ports: stop everything as on SIGTERM (with a hard limit), so a restart can start.
watchLaunchAncestors(() => {
  log("the process that started this launcher is gone; stopping");
  setTimeout(() => process.exit(1), 15_000).unref();
  launched?.beginStop();
  if (stopApp) stopApp();
  else void (launched?.stop() ?? Promise.resolve()).then(() => process.exit(1));
});

async function main() {
  const config: LocalConfig = await loadLocalConfig({ root });
  launched = config;
  // The app's own validation, now rather than on the first request (e.g. a bad TRUSTED_PROXIES).
  try {
    (await import("@/lib/env")).getEnv();
  } catch (error) {
    console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
    return shutdown(config, 1);
  }
  const { migrate } = await import("@/lib/db/migrate");
  const result = await migrate(config.env.DATABASE_URL, path.join(root, "prisma/migrations"));
  log(`database ready (${result.applied.length} migration(s) applied, ${result.alreadyApplied} already there)`);

  if (config.seedDemo) await seedDemo(config);

  if (!dev && buildIsStale(root)) {
    log("building the app (first start or sources changed)…");
    const build = spawnSync(process.execPath, [nextCli(), "build"], {
      cwd: root,
      stdio: "inherit",
      env: processEnvironments(process.env, config.env, {}).web,
    });
    if (build.status !== 0) return shutdown(config, build.status ?? 1);
  }

  // After a crash the old app server may still be on its way out (exit-with-parent.cjs).
  await waitForFreePort(Number(config.env.PORT), "PORT, the app");
  // Children stop when this launcher dies (even by SIGKILL): no orphan keeps PORT after a crash.
  // The web processes (the app server) are never given the payout key; the worker is.
  const { web: env, worker: workerEnv } = processEnvironments(process.env, config.env, config.workerEnv);
  let stopping = false;
  let exitCode = 0;
  // The background worker (webhook inbox, reconciliation, resumed orders) beside the app.
  const worker = superviseChild({
    name: "the worker",
    start: () =>
      spawn(...tsxCommand(["--conditions=react-server", path.join(root, "scripts/worker.ts")]), {
        cwd: root,
        stdio: "inherit",
        env: workerEnv,
      }),
    stopGraceMs: WORKER_STOP_GRACE_MS,
    log,
    onGiveUp: () => stop(1),
    // Readiness and the pages count the dead worker out now, not after a minute of silence.
    onCrash: async (crash) => (await import("@/lib/jobs/heartbeat")).recordWorkerDeath(config.env.DATABASE_URL, crash),
  });
  config.onStop(() => worker.stop());

  // Next behind our own small server, which tells the app each request's socket peer
  // (Next does not): the source address when no trusted proxy is in front.
  // APP_CPU_PROF=<folder>: each app process writes a V8 CPU profile there when it stops (where a page's CPU goes).
  const profile = process.env.APP_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.APP_CPU_PROF}`] : [];
  const app = spawn(process.execPath, [...profile, path.join(root, "scripts/serve-app.mjs"), ...(dev ? ["--dev"] : [])], {
    cwd: root,
    stdio: "inherit",
    env,
  });
  log(`serving on ${config.env.APP_URL} (launcher pid ${process.pid}: SIGTERM stops everything gracefully)`);
  const stop = (code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    config.beginStop(); // a restart now waits for this launcher instead of refusing
    // Both at once: the worker hands back its jobs while the app answers what it has received.
    void worker.stop();
    app.kill("SIGTERM");
  };
  stopApp = stop;
  process.on("SIGINT", () => stop());
  process.on("SIGTERM", () => stop());
  // The app server restarts its own processes (serve-app.mjs); when it exits by itself, it has
  // given up (or runs a single process, which it does not restart): everything stops, exit 1.
  app.on("exit", (code, signal) => {
    if (!stopping)
      log(
        `the app server stopped unexpectedly (${signal ? `killed by ${signal}` : `exit code ${code}`}); ` +
          "stopping everything and exiting with code 1 so that the supervisor above this one restarts it",
      );
    void shutdown(config, stopping ? exitCode : 1);
  });
}

async function seedDemo(config: LocalConfig) {
  const { seedDemoStaff } = await import("@/lib/staff/seed-demo");
  const seeded = await seedDemoStaff(config.env.DEMO_PASSWORD);
  if (!seeded.created) return log("demo accounts: <role>@demo.local (password as printed at first start, or DEMO_PASSWORD)");
  const password = seeded.password ?? "(the DEMO_PASSWORD you set)";
  console.log(
    `\n  Demo accounts created: admin@demo.local, buyer@demo.local, support@demo.local,\n  finance@demo.local, approver@demo.local, viewer@demo.local\n  Password for all of them (shown only now): ${password}\n`,
  );
}

function nextCli() {
  return path.join(root, "node_modules/next/dist/bin/next");
}

async function shutdown(config: LocalConfig, code: number) {
  await config.stop();
  process.exit(code);
}

function log(message: string) {
  console.log(`[start] ${message}`);
}

main().catch(async (error: unknown) => {
  console.error(`[start] ${explainStartupError(error)}`);
  await launched?.stop(); // the database closed and the data folder released before exiting
  process.exit(1);
});
