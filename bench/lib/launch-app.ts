import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";

/**
 * Starts the app exactly as `npm start` does (the launcher itself, not through npm, which does
 * not pass signals on), in its own process group so that stopping it stops the app processes,
 * worker, sandbox and database with it. Counts the upstream 429s the app logs, and keeps its
 * output in `<DATA_DIR>.log` (e.g. .data/bench.log) for a look after a failed run.
 */
export type LaunchedApp = { pgid: number; baseUrl: string; upstream429(): number; stop(): Promise<void> };

const ROOT = path.resolve(import.meta.dirname, "../..");

export type LaunchOptions = {
  dataDir: string;
  ports: { app: number; db: number; sandbox: number };
  demoPassword: string;
  env?: Record<string, string>;
  /** The environment the app starts from, before `env` (default: this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** The built checkout to start (default: this one), e.g. an older commit's worktree to compare with. */
  root?: string;
};

export async function launchApp({
  dataDir,
  ports,
  demoPassword,
  env: extra = {},
  baseEnv = process.env,
  root = ROOT,
}: LaunchOptions): Promise<LaunchedApp> {
  const env = {
    PORT: String(ports.app),
    DATA_DIR: dataDir,
    EMBEDDED_DB_PORT: String(ports.db),
    SANDBOX_PORT: String(ports.sandbox),
    DEMO_PASSWORD: demoPassword,
    ...extra,
  };
  let upstream429 = 0;
  // That checkout's own node_modules/.bin first, as `npm start` there would have it, and no
  // other's (npm run put this one's on PATH): its pinned Node (package.json's `node`) runs it,
  // or the machine's where it pins none, as for a commit from before the pin.
  const inherited = (baseEnv.PATH ?? "").split(path.delimiter).filter((dir) => !dir.endsWith(`node_modules${path.sep}.bin`));
  const PATH = [path.join(root, "node_modules/.bin"), ...inherited].join(path.delimiter);
  const app = spawn(path.join(root, "node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/start.ts"], {
    cwd: root,
    detached: true,
    env: { ...baseEnv, PATH, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logFile = path.join(root, `${env.DATA_DIR}.log`);
  mkdirSync(path.dirname(logFile), { recursive: true }); // a fresh clone has no .data yet
  const log = createWriteStream(logFile);
  const watch = (chunk: Buffer) => {
    log.write(chunk);
    upstream429 += (chunk.toString().match(/"status":429/g) ?? []).length;
  };
  app.stdout.on("data", watch);
  app.stderr.on("data", watch);
  const exited = new Promise((resolve) => app.once("exit", resolve));
  const launched: LaunchedApp = {
    pgid: app.pid!,
    baseUrl: `http://localhost:${env.PORT}`,
    upstream429: () => upstream429,
    async stop() {
      process.kill(-app.pid!, "SIGTERM");
      await exited;
    },
  };
  try {
    await waitForHealth(launched.baseUrl);
  } catch (error) {
    await launched.stop();
    throw error;
  }
  return launched;
}

async function waitForHealth(baseUrl: string) {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the app did not start");
}
