import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../playwright.config";
import { expectNoAxeViolations } from "./axe";
import { keyHealthWithWorker, startOwnApp, type OwnApp } from "./own-app";

/**
 * A revoked ordering key (issue 50, 3.1), on an app of this spec's own (revoking a key would
 * stop the shared app's ordering): before, a key no call has used yet reads "Not used yet",
 * never "Healthy"; after the dashboard (the sandbox's control plane) revokes the ordering
 * key, the buyer is told ordering is paused, that admins were alerted and that the form is
 * kept (and it is, through a reload); admins read "Ordering stopped for everyone since <the
 * minute it stopped>" in red with the steps that fix it, on Settings and on their home page,
 * and were notified.
 */
const PORT = Number(process.env.E2E_KEY_REVOKED_PORT ?? 3196);
const SANDBOX_PORT = Number(process.env.E2E_KEY_REVOKED_SANDBOX_PORT ?? 4696);
const DATA_DIR = ".data/e2e-key-revoked";
let app: OwnApp | undefined;

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  app = await startOwnApp({
    port: PORT,
    dbPort: Number(process.env.E2E_KEY_REVOKED_DB_PORT ?? 25496),
    sandboxPort: SANDBOX_PORT,
    dataDir: DATA_DIR,
  });
});

test.afterAll(async () => {
  await app?.stop();
});

async function signedIn(browser: Browser, role: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: app!.origin, viewport })).newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(`${role}@demo.local`);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-staff")).toContainText(`${role}@demo.local`);
  return page;
}

/** "2026-11-28 11:32 UTC", as the pages print a minute. */
const minute = (at: Date) => `${at.toISOString().replace("T", " ").slice(0, 16)} UTC`;

test("a revoked ordering key: the buyer keeps the form and is told admins know; admins see it stopped, since when, and the fix", async ({
  browser,
}) => {
  const admin = await signedIn(browser, "admin");
  const health = await keyHealthWithWorker(admin);
  // No withdrawal has been made: nothing has told whether the payout key works.
  const payout = health.locator('[data-key="payout"]');
  await expect(payout.getByTestId("key-state")).toHaveText("Not used yet");
  await expect(payout).toContainText("not yet: its first call will tell whether it works");

  const buyer = await signedIn(browser, "buyer");
  const products = await buyer.request.get("/api/catalog/products?size=24&page=1");
  expect(products.status()).toBe(200);
  // A product whose form needs nothing more than a quantity (not a top-up, which asks for a phone number).
  const product = ((await products.json()) as { items: { id: string; type: string; isAvailable: boolean }[] }).items.find(
    (p) => p.isAvailable && p.type !== "phone-top-up",
  )!;
  await buyer.goto(`/catalog/${encodeURIComponent(product.id)}`);
  await buyer.getByLabel("Quantity").fill("2");
  await buyer.getByLabel("Client reference").fill("e2e-key-revoked");

  // The dashboard revokes the ordering key.
  const keys = JSON.parse(await readFile(path.join(DATA_DIR, "sandbox-scoped-keys.json"), "utf8")) as Record<
    string,
    { id: string }
  >;
  const before = new Date();
  expect((await fetch(`http://127.0.0.1:${SANDBOX_PORT}/_sandbox/keys/${keys.ordering!.id}`, { method: "DELETE" })).status).toBe(
    200,
  );

  await buyer.getByRole("button", { name: "Get quote" }).click();
  const problem = buyer.getByTestId("order-problem");
  await expect(problem).toContainText("Ordering is paused");
  await expect(problem).toContainText("Admins have been alerted.");
  await expect(problem).toContainText("Your form is kept");
  await expect(problem).not.toContainText("Settings");
  const after = new Date();
  await expect(buyer.getByLabel("Quantity")).toHaveValue("2");
  await expect(buyer.getByLabel("Client reference")).toHaveValue("e2e-key-revoked");
  await expectNoAxeViolations(buyer, "the order form, ordering paused");
  await buyer.reload();
  await expect(buyer.getByLabel("Quantity")).toHaveValue("2");
  await expect(buyer.getByLabel("Client reference")).toHaveValue("e2e-key-revoked");

  // Settings: red, "stopped for everyone since" the minute of the first refusal, and how to fix it.
  await admin.goto("/settings");
  const ordering = health.locator('[data-key="ordering"][data-slot="active"]');
  await expect(ordering.getByTestId("key-state")).toHaveText("Stopped");
  const outage = ordering.getByTestId("key-outage");
  const since = [minute(before), minute(after)];
  await expect(outage).toContainText(new RegExp(`Ordering stopped for everyone since (${since.join("|")})`));
  await expect(outage).toContainText("The API key has been revoked.");
  await expect(outage).toContainText("How to fix it");
  await expect(outage).toContainText("Stop npm start and start it again");
  await expect(outage).toHaveClass(/\bbg-red-50\b/); // red, not amber
  await expectNoAxeViolations(admin, "Settings, a key stopped");

  // The admin home leads with it, with the same fix.
  await admin.goto("/");
  const home = admin.getByTestId("home-admin-keys");
  await expect(home.getByRole("heading")).toHaveText("Work has stopped: the Issuing Service refuses a key");
  await expect(home.getByTestId("key-outage")).toContainText(
    new RegExp(`Ordering stopped for everyone since (${since.join("|")})`),
  );
  await expect(home.getByTestId("key-outage")).toContainText("How to fix it");
  await expectNoAxeViolations(admin, "admin home, a key stopped");

  // "Admins have been alerted" is true: the admin's notifications say so.
  await admin.goto("/notifications");
  await expect(admin.getByText(/The Issuing Service refused the ordering key .* \(401\)/).first()).toBeVisible();

  // At a phone's width too.
  const phone = await signedIn(browser, "admin", { width: 390, height: 844 });
  await phone.goto("/");
  await expect(phone.getByTestId("home-admin-keys").getByTestId("key-outage")).toContainText("How to fix it");
  await expectNoAxeViolations(phone, "admin home at 390 px, a key stopped");
  await phone.goto("/settings");
  await expect(phone.getByTestId("key-outage")).toBeVisible();
  await expectNoAxeViolations(phone, "Settings at 390 px, a key stopped");
});
