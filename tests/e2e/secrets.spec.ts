import { expect, test } from "@playwright/test";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { E2E_API_KEY, E2E_DATA_DIR, E2E_WEBHOOK_SECRET } from "../../playwright.config";
import { ROLES, signInAs, withDb } from "./helpers";

/** The keys local mode gave the app (read, ordering; payout to the worker), issued by the sandbox at the first start. */
type Held = Record<"read" | "ordering" | "payout", { key: string }>;
const heldKeys = async (): Promise<Held> => JSON.parse(await readFile(`${E2E_DATA_DIR}/sandbox-scoped-keys.json`, "utf8"));
const secretOf = (key: string) => key.split("_").pop()!;
/** The secret segments of every key the app or the sandbox holds. */
const secrets = async () => [E2E_API_KEY, ...Object.values(await heldKeys()).map((k) => k.key)].map(secretOf);

test("no upstream key appears in any response the app sends to a browser", async ({ page }) => {
  test.setTimeout(180_000); // every page of every role, each the first view since the app started
  const leaks: string[] = [];
  const segments = await secrets();
  page.on("response", async (res) => {
    const body = await res.body().catch(() => Buffer.alloc(0));
    const headers = JSON.stringify(res.headers());
    if (segments.some((secret) => body.includes(secret) || headers.includes(secret))) leaks.push(res.url());
  });
  for (const role of ROLES) {
    await signInAs(page, role);
    const links = await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link")
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    for (const link of links) await page.goto(link);
    for (const api of ["/api/staff", "/api/audit", "/api/nothing"]) await page.request.get(api);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
  }
  expect(leaks).toEqual([]);
});

test("no upstream key, nor the SMTP catcher's address, appears in the outbox or in any caught mail", async ({ page }) => {
  const segments = await secrets();
  await signInAs(page, "admin");
  await page.goto("/events/outbox");
  await expect(page.getByTestId("outbox-counts")).toBeVisible();
  for (const secret of segments) await expect(page.locator("main")).not.toContainText(secret);
  await page.goto("/events/caught-mail");
  const messages = await page
    .locator('[data-testid="caught-mail"] a[href^="/events/caught-mail/"]')
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
  for (const message of messages) {
    await page.goto(message);
    const text = (await page.locator("main").textContent()) ?? "";
    for (const secret of segments) expect(text.includes(secret), message).toBe(false);
    expect(text).not.toMatch(/smtp:\/\//);
  }
});

test("key health names each key by its lookup segment, never its secret", async ({ page }) => {
  const keys = await heldKeys();
  await signInAs(page, "admin");
  await page.goto("/settings");
  const panel = page.getByTestId("key-health");
  for (const name of ["read", "ordering"] as const) {
    const lookup = keys[name].key.split("_")[1]!;
    await expect(panel.locator(`[data-key="${name}"]`)).toContainText(`svckey_${lookup}_`);
  }
  for (const secret of await secrets()) await expect(panel).not.toContainText(secret);
});

test("no file of the browser bundle contains an upstream key", async () => {
  const segments = await secrets();
  const root = path.resolve(".next/static");
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else files.push(full);
    }
  };
  await walk(root);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const text = await readFile(file);
    for (const secret of segments) expect(text.includes(secret), file).toBe(false);
  }
});

test("no upstream key or webhook secret is in any notification or any mail the catcher caught", async () => {
  const segments = [...(await secrets()), E2E_WEBHOOK_SECRET, secretOf(E2E_WEBHOOK_SECRET)];
  const texts = () =>
    withDb(async (db) => {
      const events = await db.query<{ text: string }>(
        `SELECT concat_ws(' ', "eventKey", "title", "body", "link") AS text FROM "NotificationEvent"`,
      );
      const mail = await db.query<{ text: string }>(
        `SELECT concat_ws(' ', array_to_string("to", ' '), "from", "subject", "text", "html") AS text FROM "CaughtMail"`,
      );
      return { events: events.rows.map((r) => r.text), mail: mail.rows.map((r) => r.text) };
    });
  // Not vacuous: the first start's history import alone notifies admins, by email too.
  await expect.poll(async () => (await texts()).mail.length, { timeout: 60_000 }).toBeGreaterThan(0);
  const { events, mail } = await texts();
  expect(events.length).toBeGreaterThan(0);
  for (const text of [...events, ...mail])
    for (const secret of segments) expect(text.includes(secret), text.slice(0, 120)).toBe(false);
});
