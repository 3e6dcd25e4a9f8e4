import { expect, type Browser, type Page, type ViewportSize } from "@playwright/test";
import pg from "pg";
import { DEMO_PASSWORD, E2E_DB_PORT, E2E_ORIGIN } from "../../playwright.config";
import type { SandboxProduct } from "./sandbox";

export const ROLES = ["admin", "buyer", "support", "finance", "approver", "viewer"] as const;

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signInAs(page: Page, role: (typeof ROLES)[number]) {
  await signIn(page, `${role}@demo.local`);
  await expect(page.getByTestId("current-staff")).toContainText(`${role}@demo.local`);
}

export const DESKTOP: ViewportSize = { width: 1440, height: 900 };

/**
 * A page of its own browser context, signed in as `who` (an email, or a demo role's name), at
 * 1440×900 unless told. The first sign-in after the app starts can be slow on a loaded machine.
 */
export async function signedInPage(
  browser: Browser,
  who: string,
  options: { viewport?: ViewportSize; timezoneId?: string; baseURL?: string } = {},
): Promise<Page> {
  const page = await (await browser.newContext({ viewport: DESKTOP, ...options })).newPage();
  const email = who.includes("@") ? who : `${who}@demo.local`;
  await signIn(page, email);
  await expect(page.getByTestId("current-staff")).toContainText(email, { timeout: 60_000 });
  return page;
}

/** With E2E_SCREENSHOTS=1, the page at 1440×900 and at 390×844 under test-results/shots (for a person to look at). */
export async function shots(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  await page.screenshot({ path: `test-results/shots/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/shots/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** Workspace settings as an admin saves them (`page` is an admin's). */
export async function putSettings(page: Page, data: Record<string, unknown>) {
  const res = await page.request.put("/api/settings", { headers: { origin: E2E_ORIGIN }, data });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Workspace settings saved by an admin signed in for just that. */
export async function putSettingsAsAdmin(browser: Browser, data: Record<string, unknown>) {
  const admin = await signedInPage(browser, "admin");
  await putSettings(admin, data);
  await admin.context().close();
}

/**
 * `quantity` units of the product's first variant ordered through the API by `page`'s person, with
 * a reason, when the total is above the approval threshold: the waiting request's id.
 */
export async function askForApproval(
  page: Page,
  product: SandboxProduct,
  { reference, reason, quantity = 2 }: { reference: string; reason: string; quantity?: number },
): Promise<string> {
  const res = await page.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: reference,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity, currency: "USD" },
      approvalReason: reason,
    },
  });
  expect(res.status(), await res.text()).toBe(202);
  return ((await res.json()) as { awaitingApproval: { id: string } }).awaitingApproval.id;
}

/**
 * The desktop bell's unread figure, read from what it says ("Notifications, none unread" / "N unread")
 * once its count has streamed in. Never waits on the red figure itself: it goes when the last is read.
 */
export async function bellCount(page: Page): Promise<number> {
  const bell = page.getByTestId("bell");
  await expect(bell).toHaveAccessibleName(/ unread$/);
  const figure = /Notifications, (\d+)\+? unread/.exec((await bell.textContent()) ?? "");
  return figure ? Number(figure[1]) : 0;
}

/** Waits until the desktop bell says `count` unread (as a screen reader hears it). */
export async function expectBell(page: Page, count: number) {
  await expect(page.getByTestId("bell")).toHaveAccessibleName(
    count === 0 ? "Notifications, none unread" : `Notifications, ${count} unread`,
  );
}

/** Direct access to the app's embedded database, for arranging what the UI cannot (time). */
export async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${E2E_DB_PORT}/postgres?sslmode=disable`,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A person of a spec's own, with these roles and the demo password; created once, kept for later runs. */
export async function addStaff(email: string, name: string, roles: string[]): Promise<void> {
  await withDb((db) =>
    db.query(
      `INSERT INTO "Staff" (id, email, name, "passwordHash", roles, "updatedAt")
       SELECT gen_random_uuid()::text, $1, $2, "passwordHash", $3::"Role"[], now() FROM "Staff" WHERE email = 'buyer@demo.local'
       ON CONFLICT (email) DO NOTHING`,
      [email, name, roles],
    ),
  );
}

/** What the e2e workspace names its payout details (Settings), so that withdrawals can be approved. */
export const E2E_PAYOUT_NAME = "E2E Payout Ltd · account ending 0001";

/**
 * A withdrawal is approved only to named payout details (lib/withdrawals/payout-destination.ts):
 * names them, as an admin does in Settings, for a spec that approves one.
 */
export async function namePayoutDetails(name = E2E_PAYOUT_NAME): Promise<void> {
  await withDb((db) =>
    db.query(
      `INSERT INTO "Setting" (key, value, "updatedAt") VALUES ('payoutDetailsName', $1::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
      [JSON.stringify(name)],
    ),
  );
}
