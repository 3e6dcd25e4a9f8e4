import { afterEach, expect, test } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startLocalSandbox } from "../../scripts/lib/local-sandbox";

/**
 * The local sandbox's address names the order history's sync row (lib/orders/sync-state.ts):
 * a new port at every start was a new upstream to the app, and so a new history import and its
 * "import finished" notification after every start. It keeps its port under DATA_DIR.
 */
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

test("the local sandbox comes back on the same address after a restart", async () => {
  const given = process.env.SANDBOX_PORT;
  delete process.env.SANDBOX_PORT;
  try {
    const dataDir = await mkdtemp(path.join(tmpdir(), "sandbox-port-"));
    dirs.push(dataDir);
    const options = { root: process.cwd(), dataDir, webhookUrl: "http://127.0.0.1:9/api/webhooks/service" };
    const first = await startLocalSandbox(options);
    await first.stop();
    const second = await startLocalSandbox(options);
    await second.stop();
    expect(new URL(first.baseUrl).port).not.toBe("0");
    expect(second.baseUrl).toBe(first.baseUrl);
  } finally {
    if (given !== undefined) process.env.SANDBOX_PORT = given;
  }
}, 60_000);
