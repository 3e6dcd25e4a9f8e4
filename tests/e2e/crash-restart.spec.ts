import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * A supervisor restarts a crashed `npm start` at once (systemd: after 100 ms). Twice in a row:
 * SIGKILL, restart immediately, and the app must come up — first after a SIGKILL of npm alone
 * (its tsx, launcher and children are left running and must stop by themselves), then after
 * a SIGKILL of the whole process group (everything dies at once, the old pids may stay unreaped).
 * Its own data folder and free ports; the build is the one the e2e web server just made.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const DATA_DIR = ".data/e2e-crash-restart";

type Launch = { child: ChildProcess; output: () => string };

test.describe.configure({ timeout: 10 * 60_000 });

test("npm start comes up again right after being killed with SIGKILL, twice in a row", async () => {
  await rm(path.join(ROOT, DATA_DIR), { recursive: true, force: true });
  const [port, dbPort, sandboxPort] = await freeThreePorts();
  const env = {
    PORT: String(port),
    DATA_DIR,
    EMBEDDED_DB_PORT: String(dbPort),
    SANDBOX_PORT: String(sandboxPort),
    DEMO_PASSWORD: "crash-restart-password-1",
    LOG_LEVEL: "warn",
  };
  const launches: Launch[] = [];
  const start = () => {
    const launched = launch(env);
    launches.push(launched);
    return launched;
  };
  try {
    const first = start();
    await untilServing(first, port);

    process.kill(first.child.pid!, "SIGKILL"); // npm alone
    const second = start();
    await untilServing(second, port);

    process.kill(-second.child.pid!, "SIGKILL"); // the whole tree, as a supervisor kills a unit
    const third = start();
    await untilServing(third, port);
    expect(third.output()).not.toMatch(/ECONNREFUSED|EADDRINUSE/);
  } finally {
    for (const { child } of launches) signalGroup(child, "SIGTERM");
    // Every process started here is gone once its ports are free again; then make sure by SIGKILL.
    const freed = await untilPortsFree([port, dbPort, sandboxPort], 30_000);
    for (const { child } of launches) signalGroup(child, "SIGKILL");
    expect(freed, "the app's ports are free after stopping everything this test started").toBe(true);
  }
});

test("with two app processes, one killed with SIGKILL is replaced, the app keeps answering, and SIGTERM stops all", async () => {
  await rm(path.join(ROOT, `${DATA_DIR}-cluster`), { recursive: true, force: true });
  const [port, dbPort, sandboxPort] = await freeThreePorts();
  const launched = launch({
    PORT: String(port),
    DATA_DIR: `${DATA_DIR}-cluster`,
    EMBEDDED_DB_PORT: String(dbPort),
    SANDBOX_PORT: String(sandboxPort),
    DEMO_PASSWORD: "crash-restart-password-1",
    LOG_LEVEL: "warn",
    WEB_CONCURRENCY: "2",
  });
  try {
    await untilServing(launched, port);
    await expect.poll(() => appWorkers(launched.child.pid!).length, { timeout: 60_000 }).toBe(2);
    const [victim, survivor] = appWorkers(launched.child.pid!) as [number, number];

    process.kill(victim, "SIGKILL");
    // Once the supervisor has seen it go (a request in flight on it is lost, as on any crash), the
    // survivor answers every request while a replacement starts.
    await expect
      .poll(() => launched.output(), { timeout: 30_000 })
      .toMatch(new RegExp(`app process ${victim} stopped \\(killed by SIGKILL\\)`));
    for (let i = 0; i < 5; i++) expect((await fetch(`http://127.0.0.1:${port}/api/health`)).ok).toBe(true);
    await expect
      .poll(() => appWorkers(launched.child.pid!).filter((pid) => pid !== victim && pid !== survivor).length, {
        timeout: 120_000,
      })
      .toBe(1);
  } finally {
    signalGroup(launched.child, "SIGTERM");
    const freed = await untilPortsFree([port, dbPort, sandboxPort], 30_000);
    signalGroup(launched.child, "SIGKILL");
    expect(freed, "the app's ports are free after SIGTERM").toBe(true);
  }
});

/** The app's worker processes in a launch's process group: serve-app.mjs processes whose parent is serve-app.mjs too. */
function appWorkers(pgid: number): number[] {
  const serveApp = new Map<number, number>(); // pid → parent pid
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) !== pgid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("serve-app.mjs")) serveApp.set(Number(entry), Number(ppid));
    } catch {
      // gone between the listing and the read
    }
  }
  return [...serveApp].filter(([, ppid]) => serveApp.has(ppid)).map(([pid]) => pid);
}

function launch(env: Record<string, string>): Launch {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL; // local mode, whatever the caller has set
  delete inherited.SERVICE_BASE_URL;
  // detached: its own process group, so the test can kill the whole tree the way a supervisor does.
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

// "serving on" is logged once the launcher has the data folder and PORT (after the old app let go
// of them), so the health answer that follows comes from this launch, not from a leftover.
async function untilServing(launched: Launch, port: number): Promise<void> {
  await expect
    .poll(
      async () => {
        if (launched.child.exitCode !== null)
          throw new Error(`npm start exited with ${launched.child.exitCode}:\n${launched.output()}`);
        if (!launched.output().includes("[start] serving on")) return false;
        const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
        return res?.ok ?? false;
      },
      { timeout: 240_000, intervals: [250] },
    )
    .toBe(true);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // the group is already gone
  }
}

async function untilPortsFree(ports: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

async function freeThreePorts(): Promise<[number, number, number]> {
  const servers = await Promise.all(
    Array.from(
      { length: 3 },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer();
          server.listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  const [a, b, c] = servers.map((s) => (s.address() as net.AddressInfo).port) as [number, number, number]; // TCP listeners: AddressInfo, one per server
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return [a, b, c];
}
