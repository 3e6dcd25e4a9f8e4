/**
 * `npm start`: starts what is not configured, migrates, and serves the app.
 * - DATABASE_URL unset → embedded PostgreSQL (PGlite) under DATA_DIR (default .data/),
 *   served on loopback, and demo staff accounts (local mode).
 * - AUTH_SECRET unset → generated once under DATA_DIR (refused in production mode).
 * Then builds the app if the build is missing or older than the sources, and serves it
 * with scripts/serve-app.mjs (Next in production mode, or dev mode with --dev) as a child.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { loadLocalConfig, type LocalConfig } from "./lib/local-config";
import { buildIsStale } from "./lib/build-freshness";
import { stopChild } from "./lib/local-sandbox";

const dev = process.argv.includes("--dev");
const root = path.resolve(import.meta.dirname, "..");

async function main() {
  const config: LocalConfig = await loadLocalConfig({ root });
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
    const build = spawnSync(nextBin(), ["build"], { cwd: root, stdio: "inherit", env: { ...process.env, ...config.env } });
    if (build.status !== 0) return shutdown(config, build.status ?? 1);
  }

  const env = { ...process.env, ...config.env };
  let stopping = false;
  // The background worker (webhook inbox, reconciliation, resumed orders) beside the app.
  const worker = spawn(path.join(root, "node_modules/.bin/tsx"), ["--conditions=react-server", path.join(root, "scripts/worker.ts")], { cwd: root, stdio: "inherit", env });
  worker.on("exit", (code, signal) => {
    if (!stopping) log(`the worker stopped (${signal ?? `code ${code}`}); background work pauses until the next start`);
  });
  config.onStop(() => stopChild(worker));

  // Next behind our own small server, which tells the app each request's socket peer
  // (Next does not): the source address when no trusted proxy is in front.
  const app = spawn(process.execPath, [path.join(root, "scripts/serve-app.mjs"), ...(dev ? ["--dev"] : [])], { cwd: root, stdio: "inherit", env });
  log(`serving on ${config.env.APP_URL}`);
  const stop = () => {
    stopping = true;
    app.kill("SIGTERM");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  app.on("exit", (code) => void shutdown(config, code ?? 0));
}

async function seedDemo(config: LocalConfig) {
  const { seedDemoStaff } = await import("@/lib/staff/seed-demo");
  const seeded = await seedDemoStaff(config.env.DEMO_PASSWORD);
  if (!seeded.created) return log("demo accounts: <role>@demo.local (password as printed at first start, or DEMO_PASSWORD)");
  const password = seeded.password ?? "(the DEMO_PASSWORD you set)";
  console.log(`\n  Demo accounts created: admin@demo.local, buyer@demo.local, support@demo.local,\n  finance@demo.local, approver@demo.local, viewer@demo.local\n  Password for all of them (shown only now): ${password}\n`);
}

function nextBin() {
  return path.join(root, "node_modules/.bin/next");
}

async function shutdown(config: LocalConfig, code: number) {
  await config.stop();
  process.exit(code);
}

function log(message: string) {
  console.log(`[start] ${message}`);
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
