import { open, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../playwright.config";
import { keyHealthWithWorker, startOwnApp, type OwnApp } from "./own-app";

/**
 * Least-privilege keys in local mode (issue 42), against an app of this spec's own (its own
 * ports and data folder: it revokes a key, which the shared app must not suffer), started with
 * `npm start` as a newcomer would:
 * - the launcher gives the web processes the read and ordering keys and never the payout key,
 *   which only the worker holds (read from each process's environment and memory);
 * - key health on Settings shows a key about to expire (its configured expiry) and, after the
 *   ordering key is revoked through the sandbox's control plane, that key's refusal; ordering
 *   then fails with a clear message while reads still work.
 * The shared app's withdrawals spec proves an approved withdrawal is still sent and paid out
 * when the web processes hold no payout key (the worker sends it).
 */
const PORT = Number(process.env.E2E_KEYS_PORT ?? 3195);
const SANDBOX_PORT = Number(process.env.E2E_KEYS_SANDBOX_PORT ?? 4695);
const ORIGIN = `http://localhost:${PORT}`;
const DATA_DIR = ".data/e2e-keys";
const READ_KEY_EXPIRES = new Date(Date.now() + 5 * 86_400_000 + 3_600_000);
let app: OwnApp | undefined;

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  app = await startOwnApp({
    port: PORT,
    dbPort: Number(process.env.E2E_KEYS_DB_PORT ?? 25495),
    sandboxPort: SANDBOX_PORT,
    dataDir: DATA_DIR,
    env: { SERVICE_READ_KEY_EXPIRES_AT: READ_KEY_EXPIRES.toISOString(), WEB_CONCURRENCY: "2" },
  });
});

test.afterAll(async () => {
  await app?.stop();
});

type Held = Record<"read" | "ordering" | "payout", { id: string; key: string }>;
const heldKeys = async (): Promise<Held> => JSON.parse(await readFile(path.join(DATA_DIR, "sandbox-scoped-keys.json"), "utf8"));

/** This app's processes: the web app server (cluster primary and workers) and the background worker. */
async function processesOfThisApp(): Promise<{ web: number[]; worker: number[] }> {
  const web: number[] = [];
  const worker: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const [cmdline, environ] = await Promise.all([
      readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => ""),
      readFile(`/proc/${pid}/environ`, "utf8").catch(() => ""),
    ]);
    if (!environ.split("\0").includes(`DATA_DIR=${DATA_DIR}`)) continue;
    if (cmdline.includes("serve-app.mjs")) web.push(pid);
    else if (cmdline.includes("scripts/worker.ts")) worker.push(pid);
  }
  return { web, worker };
}

/** Whether `needle` is anywhere in a process's readable memory (/proc/<pid>/mem, region by region). */
async function memoryHolds(pid: number, needle: string): Promise<boolean> {
  const bytes = Buffer.from(needle, "latin1");
  const maps = (await readFile(`/proc/${pid}/maps`, "utf8")).split("\n");
  const mem = await open(`/proc/${pid}/mem`, "r");
  try {
    const chunk = Buffer.alloc(8 << 20);
    for (const line of maps) {
      const match = /^([0-9a-f]+)-([0-9a-f]+) (r)/.exec(line);
      if (!match || line.includes("[vvar") || line.includes("[vsyscall]")) continue;
      const [start, end] = [parseInt(match[1]!, 16), parseInt(match[2]!, 16)];
      for (let at = start; at < end; at += chunk.length - bytes.length) {
        const length = Math.min(chunk.length, end - at);
        const { bytesRead } = await mem.read(chunk, 0, length, at).catch(() => ({ bytesRead: 0 }));
        if (bytesRead > 0 && chunk.subarray(0, bytesRead).includes(bytes)) return true;
        if (length < chunk.length) break;
      }
    }
    return false;
  } finally {
    await mem.close();
  }
}

async function signedIn(browser: Browser, role: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: ORIGIN })).newPage();
  await page.goto("/signin");
  // This app has no SSO_* configuration (local mode as a newcomer starts it): no SSO button.
  await expect(page.getByRole("form", { name: "Sign in" })).toBeVisible();
  await expect(page.getByTestId("sso-sign-in")).toHaveCount(0);
  await page.getByLabel("Email").fill(`${role}@demo.local`);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-staff")).toContainText(`${role}@demo.local`);
  return page;
}

test("the web processes hold no payout key, in their environment or their memory; the worker does", async () => {
  const keys = await heldKeys();
  const secret = keys.payout.key.split("_").at(-1)!;
  const { web, worker } = await processesOfThisApp();
  expect(web.length).toBeGreaterThanOrEqual(3); // the cluster primary and WEB_CONCURRENCY=2 workers
  expect(worker.length).toBeGreaterThanOrEqual(1);

  for (const pid of web) {
    const environ = (await readFile(`/proc/${pid}/environ`, "utf8")).split("\0");
    expect(environ.filter((v) => v.startsWith("SERVICE_PAYOUT_KEY"))).toEqual([]);
    expect(environ.some((v) => v.startsWith("SERVICE_READ_KEY="))).toBe(true);
    expect(environ.some((v) => v.startsWith("SERVICE_ORDERING_KEY="))).toBe(true);
    expect(environ.some((v) => v.startsWith("SERVICE_API_KEY="))).toBe(false);
    expect(await memoryHolds(pid, secret)).toBe(false);
  }
  // The same reading finds it where it is: the worker's environment and memory.
  const workerEnv = (await readFile(`/proc/${worker[0]}/environ`, "utf8")).split("\0");
  expect(workerEnv).toContain(`SERVICE_PAYOUT_KEY=${keys.payout.key}`);
  expect(await memoryHolds(worker.at(-1)!, secret)).toBe(true);
});

test("key health: the read key's expiry is warned of; a revoked ordering key stops ordering, says so, and reads go on", async ({
  browser,
}) => {
  const admin = await signedIn(browser, "admin");
  const health = await keyHealthWithWorker(admin);
  const read = health.locator('[data-key="read"][data-slot="active"]');
  await expect(read).toContainText("products.read, orders.read, wallet.read");
  await expect(read).toContainText("the web app");
  await expect(read).toContainText("the worker");
  await expect(read).toContainText(/Expires on \d{4}-\d{2}-\d{2} .* \(in [45] days\)/);
  await expect(health.locator('[data-key="payout"]')).toContainText("Held by");
  await expect(health.locator('[data-key="payout"]')).not.toContainText("the web app");

  // The dashboard (the sandbox's control plane) revokes the ordering key.
  const keys = await heldKeys();
  const revoked = await fetch(`http://127.0.0.1:${SANDBOX_PORT}/_sandbox/keys/${keys.ordering.id}`, { method: "DELETE" });
  expect(revoked.status).toBe(200);

  const buyer = await signedIn(browser, "buyer");
  const products = await buyer.request.get("/api/catalog/products?size=24&page=1");
  expect(products.status()).toBe(200);
  const product = (
    (await products.json()) as { items: { id: string; variants: { id: string }[]; currency: string }[] }
  ).items.find((p) => p.variants.length > 0)!;
  const quote = await buyer.request.post("/api/quotes", {
    headers: { origin: ORIGIN },
    data: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
  });
  expect(quote.status()).toBe(502);
  expect(await quote.json()).toMatchObject({ code: "upstream_key_refused", key: "ordering" });
  expect((await quote.json()).detail).toContain("refused the back-office's ordering key");
  // Reads still work, with the read key (a catalog page not read before, so it is asked of the Issuing Service).
  expect((await buyer.request.get("/api/catalog/products?size=24&page=2")).status()).toBe(200);

  await admin.goto("/settings");
  const ordering = health.locator('[data-key="ordering"][data-slot="active"]');
  await expect(ordering.getByTestId("key-state")).toHaveText("Stopped");
  await expect(ordering).toContainText(/Refused with 401 .*The API key has been revoked\./);
  await expect(read).toContainText("Needs attention"); // its expiry
  await admin.goto("/");
  const alert = admin.getByTestId("home-admin-keys");
  await expect(alert).toContainText("ordering key");
  await expect(alert).toContainText("The API key has been revoked.");
  await expect(alert).toContainText("read key");
});
