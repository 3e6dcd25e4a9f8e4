import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { expect, type Locator, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../playwright.config";

export type OwnApp = { origin: string; stop: () => Promise<void> };

/** Whether any process of the group `pid` leads is still there (signal 0 only asks). */
function groupAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

const status = (origin: string) =>
  fetch(`${origin}/api/health`).then(
    (r) => r.status,
    () => 0,
  );

/**
 * An app of a spec's own, started with `npm start` as a newcomer would (local mode, its own
 * ports and fresh data folder), for a spec that does what the shared app must not suffer
 * (revoking a key, a restore). `stop` ends its process group and waits until it no longer answers.
 */
export async function startOwnApp(options: {
  port: number;
  dbPort: number;
  sandboxPort: number;
  dataDir: string;
  /** Start on the data folder as it is (a restored one) rather than a fresh one. */
  keepData?: boolean;
  env?: Record<string, string>;
}): Promise<OwnApp> {
  const origin = `http://localhost:${options.port}`;
  if (!options.keepData) rmSync(options.dataDir, { recursive: true, force: true });
  const app = spawn("npm", ["start"], {
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(options.port),
      DATA_DIR: options.dataDir,
      EMBEDDED_DB_PORT: String(options.dbPort),
      SANDBOX_PORT: String(options.sandboxPort),
      DEMO_PASSWORD,
      LOG_LEVEL: "warn",
      ...options.env,
    },
  });
  await expect.poll(() => status(origin), { timeout: 280_000, intervals: [1_000] }).toBe(200);
  return {
    origin,
    stop: async () => {
      if (app.pid) process.kill(-app.pid, "SIGTERM");
      await expect.poll(() => status(origin), { timeout: 30_000 }).toBe(0);
      // Not answering is not gone: the worker and the embedded database write to the data folder
      // until the last process of the group has exited (a stop is graceful).
      await expect.poll(() => groupAlive(app.pid), { timeout: 60_000 }).toBe(false);
    },
  };
}

/**
 * Settings' key health once the worker has reported its keys (each process records them when it
 * first talks to the Issuing Service: the worker's payout key shows once it has). `admin` is an admin's page.
 */
export async function keyHealthWithWorker(admin: Page): Promise<Locator> {
  const health = admin.getByTestId("key-health");
  await expect
    .poll(
      async () => {
        await admin.goto("/settings");
        return health.locator('[data-key="payout"]').count();
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(1);
  return health;
}
