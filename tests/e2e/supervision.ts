import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { expect } from "@playwright/test";
import pg from "pg";
import { askOwner } from "../../scripts/lib/data-dir-lock";
import { DEMO_PASSWORD } from "../../playwright.config";

/**
 * `npm start` as an operator's supervisor runs it, for the supervision specs: its own ports
 * (slot n: 3300+n, 25600+n, 4750+n, used by no other spec), its own data folder, its output
 * kept, and the processes it started found through /proc by its process group.
 */
export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SANDBOX_KEY = "svckey_e2esupervision_NotASecretOfAnyRealService0123456789";

export type Launch = {
  child: ChildProcess;
  output: () => string;
  origin: string;
  port: number;
  dbPort: number;
  sandboxPort: number;
  dataDir: string;
};

export async function launch(slot: number, options: { fresh?: boolean; env?: Record<string, string> } = {}): Promise<Launch> {
  const dataDir = path.join(ROOT, `.data/e2e-supervision-${slot}`);
  if (options.fresh !== false) await rm(dataDir, { recursive: true, force: true });
  const [port, dbPort, sandboxPort] = [3300 + slot, 25600 + slot, 4750 + slot];
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL; // local mode, whatever the caller has set
  delete inherited.SERVICE_BASE_URL;
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true, // its own process group: what it started can be found, and nothing outlives the test
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...inherited,
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_DB_PORT: String(dbPort),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_API_KEY: SANDBOX_KEY,
      DEMO_PASSWORD,
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: "2",
      ...options.env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const launched = { child, output: () => output, origin: `http://localhost:${port}`, port, dbPort, sandboxPort, dataDir };
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
        if (!output.includes("[start] serving on")) return false;
        const res = await fetch(`${launched.origin}/api/health`).catch(() => null);
        return res?.ok ?? false;
      },
      { timeout: 280_000, intervals: [500] },
    )
    .toBe(true);
  return launched;
}

/** The pids of the worker processes this launch has started, in order, as each said when it ran. */
export function workerPids(launched: Launch): number[] {
  return [...launched.output().matchAll(/\[worker\] running \(pid (\d+)\)/g)].map((m) => Number(m[1]));
}

/** The latest worker's pid, once it runs and is not one of `before`; checked against /proc to be the worker. */
export async function nextWorkerPid(launched: Launch, before: number[], timeout = 60_000): Promise<number> {
  let pid = 0;
  await expect
    .poll(
      () => {
        pid = workerPids(launched).find((p) => !before.includes(p)) ?? 0;
        return pid !== 0 && cmdline(pid).includes("scripts/worker.ts");
      },
      { timeout, intervals: [250] },
    )
    .toBe(true);
  return pid;
}

/** The launcher itself (the node process running scripts/start.ts), by the pid it logs. */
export function launcherPid(launched: Launch): number {
  const pid = Number(/\[start\] serving on \S+ \(launcher pid (\d+)/.exec(launched.output())?.[1]);
  if (!pid) throw new Error(`the launcher did not say its pid:\n${launched.output()}`);
  return pid;
}

/** Every live process (zombies excluded) in the launch's process group. */
export function groupPids(launched: Launch): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === launched.child.pid && state !== "Z") pids.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return pids;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Whether some process still holds the launch's data folder (its embedded database). */
export async function folderHeld(launched: Launch): Promise<boolean> {
  return (await askOwner(launched.dataDir)) !== null;
}

/** Ends whatever of the launch is left (after a test that failed half-way). */
export function killGroup(launched: Launch | undefined): void {
  if (!launched?.child.pid) return;
  try {
    process.kill(-launched.child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export async function withLaunchDb<T>(launched: Launch, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${launched.dbPort}/postgres?sslmode=disable`,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function launchSandbox<T>(launched: Launch, route: string, init: RequestInit = {}): Promise<T> {
  const control = route.startsWith("/_sandbox");
  const res = await fetch(`http://127.0.0.1:${launched.sandboxPort}${control ? route : `/api/v1${route}`}`, {
    ...init,
    headers: { "x-api-key": SANDBOX_KEY, "content-type": "application/json", ...init.headers },
  });
  if (!res.ok) throw new Error(`sandbox ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
