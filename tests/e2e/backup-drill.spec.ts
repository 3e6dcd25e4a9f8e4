import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { DEMO_PASSWORD } from "../../playwright.config";
import { startOwnApp, type OwnApp } from "./own-app";
import { signedInPage } from "./helpers";

/**
 * The backup drill (issue 52), on an app of this spec's own as `npm start` runs it: a person
 * enrolled with an authenticator app, orders, a reveal, notifications and their audit; then
 * `npm run db:backup` while 50 orders are being placed; the folder wiped; `npm run db:restore`
 * into a new folder; every table equal, count and digest, to the backup's point; the app starts
 * on it and the enrolled person signs in with a code from their authenticator.
 */
const PORT = 3331;
const DB_PORT = 25631;
const SANDBOX_PORT = 4781;
const DATA_DIR = ".data/e2e-backup-drill";
const RESTORED_DIR = ".data/e2e-backup-drill-restored";
const BACKUP_DIR = ".data/e2e-backup-drill-daily";
const BACKUP_FILE = ".data/e2e-backup-drill.json.gz";
const BURST = 50;
const ENROLLED = "viewer@demo.local";
const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const appEnv = {
  SANDBOX_RATE_LIMIT: "600",
  SERVICE_RATE_LIMIT: "600",
  SANDBOX_FULFILMENT_DELAY_MS: "300",
};

let app: OwnApp | undefined;
test.describe.configure({ mode: "serial", timeout: 600_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  for (const dir of [RESTORED_DIR, BACKUP_DIR, BACKUP_FILE]) await rm(dir, { recursive: true, force: true });
  app = await startOwnApp({
    port: PORT,
    dbPort: DB_PORT,
    sandboxPort: SANDBOX_PORT,
    dataDir: DATA_DIR,
    env: { ...appEnv, BACKUP_DIR, BACKUP_KEEP: "2" },
  });
});

test.afterAll(async () => {
  await app?.stop();
});

/** An authenticator: the code of a step later than any it showed before (waits for the next step if it must). */
function authenticator(secret: string) {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  let lastStep = -1;
  return async (): Promise<string> => {
    for (;;) {
      const step = Math.floor(Date.now() / 30_000);
      if (step > lastStep) {
        lastStep = step;
        return totp.generate({ timestamp: step * 30_000 + 1_000 });
      }
      await new Promise((resolve) => setTimeout(resolve, (step + 1) * 30_000 - Date.now() + 200));
    }
  };
}

async function npmRun(script: string, file: string, dataDir: string) {
  return run("npm", ["run", "-s", script, "--", file], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
  }).then(
    (done) => ({ code: 0, out: done.stdout + done.stderr }),
    (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, out: failed.stdout + failed.stderr }),
  );
}

type Digests = Record<string, { rows: number; md5: string }>;

/** Each table's count and the md5 of its rows in a fixed order, read from a stopped data folder. */
async function digestsOf(dataDir: string, tables: string[]): Promise<Digests> {
  const db = await PGlite.create({ dataDir: path.join(dataDir, "pglite"), extensions: { pg_trgm } });
  try {
    const digests: Digests = {};
    for (const table of tables) {
      const { rows } = await db.query<{ rows: number; md5: string }>(
        `SELECT count(*)::int AS rows, md5(COALESCE(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C"), '')) AS md5 FROM "${table}" t`,
      );
      digests[table] = rows[0]!;
    }
    return digests;
  } finally {
    await db.close();
  }
}

test("a backup taken while 50 orders are placed restores into a new folder, every table as it was, and the enrolled person signs in", async ({
  browser,
}) => {
  // A person enrolled with an authenticator app, as they would through Sign-in security.
  const viewer = await signedInPage(browser, ENROLLED, { baseURL: app!.origin });
  await viewer.goto("/account/security");
  await viewer.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = (await viewer.getByTestId("totp-key").textContent())!.replace(/\s/g, "");
  const code = authenticator(secret);
  await viewer.getByLabel("Code from the app").fill(await code());
  await viewer.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(viewer.getByTestId("recovery-code")).toHaveCount(10);
  await viewer.getByRole("button", { name: /I have saved them/ }).click();
  await viewer.context().close();

  // An order, its code revealed by support, and a withdrawal request that notifies the approvers.
  const buyer = await signedInPage(browser, "buyer@demo.local", { baseURL: app!.origin });
  const products = (await (await buyer.request.get("/api/catalog/products?size=24&page=1")).json()) as {
    items: { id: string; type: string; isAvailable: boolean; currency: string; variants: { id: string; price: number }[] }[];
  };
  const product = products.items.find(
    (p) => p.isAvailable && p.type === "gift-card" && p.currency === "USD" && p.variants.length > 0 && p.variants[0]!.price < 40,
  )!;
  const order = (reference: string) =>
    buyer.request.post("/api/orders", {
      headers: { origin: app!.origin },
      data: {
        idempotencyKey: randomUUID(),
        clientReference: reference,
        item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: "USD" },
      },
    });
  const first = await order("drill-first");
  expect(first.status(), await first.text()).toBe(201);
  const orderId = ((await first.json()) as { order: { id: string } }).order.id;
  await expect
    .poll(async () => ((await (await buyer.request.get(`/api/orders/${orderId}`)).json()) as { status?: string }).status, {
      timeout: 30_000,
    })
    .toBe("fulfilled");
  const support = await signedInPage(browser, "support@demo.local", { baseURL: app!.origin });
  const revealed = await support.request.post(`/api/orders/${orderId}/reveal`, {
    headers: { origin: app!.origin },
    data: {
      idempotencyKey: randomUUID(),
      ticket: "DRILL-1",
      reason: "Customer lost the email with the code",
      password: DEMO_PASSWORD,
    },
  });
  expect(revealed.ok(), await revealed.text()).toBe(true);
  const finance = await signedInPage(browser, "finance@demo.local", { baseURL: app!.origin });
  const requested = await finance.request.post("/api/withdrawals", {
    headers: { origin: app!.origin },
    data: { amount: "12.34", currency: "USD", reason: "Backup drill" },
  });
  expect(requested.status(), await requested.text()).toBe(201);

  // 50 orders, two at a time; the backup starts once ten have been answered.
  let answered = 0;
  let startBackup!: () => void;
  const tenAnswered = new Promise<void>((resolve) => (startBackup = resolve));
  const statuses: number[] = [];
  let next = 0;
  const burst = Promise.all(
    [0, 1].map(async () => {
      while (next < BURST) {
        const res = await order(`drill-burst-${next++}`);
        statuses.push(res.status());
        if (++answered === 10) startBackup();
      }
    }),
  );
  const backup = tenAnswered.then(() => npmRun("db:backup", BACKUP_FILE, DATA_DIR));
  const [taken] = await Promise.all([backup, burst]);
  expect(taken.code, taken.out).toBe(0);
  console.log(taken.out.split("\n")[0]);
  expect(taken.out).toContain("NOT INCLUDED");
  expect(statuses.filter((s) => s !== 201)).toEqual([]);
  expect((await stat(BACKUP_FILE)).mode & 0o777).toBe(0o600);

  const saved = JSON.parse(gunzipSync(await readFile(BACKUP_FILE)).toString("utf8")) as {
    tables: Record<string, string[]>;
    digests: Digests;
    files: Record<string, string>;
  };
  const burstInBackup = saved.tables.Order!.filter((row) => row.includes(",drill-burst-")).length;
  console.log(`the backup holds ${burstInBackup} of the ${BURST} orders of the burst`);
  expect(burstInBackup).toBeGreaterThanOrEqual(10);
  expect(burstInBackup).toBeLessThanOrEqual(BURST);
  expect(Object.keys(saved.files)).toEqual(
    expect.arrayContaining(["auth-secret", "second-factor-key", "sandbox-scoped-keys.json"]),
  );
  for (const table of [
    "Staff",
    "SecondFactor",
    "RecoveryCode",
    "CodeReveal",
    "Notification",
    "NotificationEvent",
    "AuditEvent",
    "WithdrawalRequest",
  ])
    expect({ table, rows: saved.digests[table]!.rows > 0 }).toEqual({ table, rows: true });

  // A restore never writes into the running app's folder.
  const refused = await npmRun("db:restore", BACKUP_FILE, DATA_DIR);
  expect(refused.code).not.toBe(0);
  expect(refused.out).toContain("refused");

  // The daily backup has been written by the launcher (a minute after start) and kept 0600.
  await expect.poll(async () => (existsSync(BACKUP_DIR) ? (await readdir(BACKUP_DIR)).length : 0), { timeout: 120_000 }).toBe(1);
  const [daily] = await readdir(BACKUP_DIR);
  expect((await stat(path.join(BACKUP_DIR, daily!))).mode & 0o777).toBe(0o600);

  await app!.stop();
  app = undefined;
  await rm(DATA_DIR, { recursive: true, force: true }); // the disk is lost

  const restored = await npmRun("db:restore", BACKUP_FILE, RESTORED_DIR);
  expect(restored.code, restored.out).toBe(0);
  console.log(restored.out.split("\n")[0]);
  // Every table, as the backup's snapshot saw it: count and digest.
  expect(await digestsOf(RESTORED_DIR, Object.keys(saved.digests))).toEqual(saved.digests);
  // One point in time: every order of the burst came with its audit row (one transaction each), none without.
  const torn = await (async () => {
    const db = await PGlite.create({ dataDir: path.join(RESTORED_DIR, "pglite"), extensions: { pg_trgm } });
    try {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "Order" o WHERE o."clientReference" LIKE 'drill-burst-%'
           AND NOT EXISTS (SELECT 1 FROM "AuditEvent" a WHERE a.action = 'order.place' AND a."targetId" = o.id)`,
      );
      return rows[0]!.n;
    } finally {
      await db.close();
    }
  })();
  expect(torn).toBe(0);

  app = await startOwnApp({
    port: PORT,
    dbPort: DB_PORT,
    sandboxPort: SANDBOX_PORT,
    dataDir: RESTORED_DIR,
    keepData: true,
    env: appEnv,
  });
  const page = await (await browser.newContext({ baseURL: app.origin })).newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(ENROLLED);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/signin\/verify/);
  await page.getByLabel(/Authenticator app code/).fill(await code());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("current-staff")).toContainText(ENROLLED);
  // The revealed order is there, as the buyer left it.
  const buyerAgain = await signedInPage(browser, "buyer@demo.local", { baseURL: app!.origin });
  expect(((await (await buyerAgain.request.get(`/api/orders/${orderId}`)).json()) as { status?: string }).status).toBe(
    "fulfilled",
  );
});
