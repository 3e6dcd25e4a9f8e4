import { expect, test, type Browser, type Page } from "@playwright/test";
import path from "node:path";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { addStaff, signIn, withDb } from "./helpers";
import { findProduct, sandboxControl, type SandboxProduct } from "./sandbox";
import { expectNoAxeViolations } from "./axe";

// The home page of approvers, buyers and support (issue 16) after a scripted morning:
// orders placed, one failed and one stuck; a withdrawal and a spend request waiting; a
// reveal and a reveal-quota breach. Workspace-wide figures are read before and after (the
// suite shares one database), so each test asserts exactly what this morning added.
const ORIGIN = E2E_ORIGIN;
const HOME_BUYER = "home-buyer@demo.local"; // a buyer of their own: "their orders today" are exactly this morning's

type Person = "admin" | "approver" | "buyer" | "finance" | "support" | typeof HOME_BUYER;

let product: SandboxProduct;
const refs = { failed: "", fulfilled: "", reserved: "", stuck: "", spend: "" };
const ids = { failed: "", fulfilled: "", stuck: "", withdrawal: "" };
let withdrawalAmount = "";
const before = { waiting: 0, stuck: 0, failed: 0 };
let quotaBefore = 20;

async function as(browser: Browser, who: Person): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const email = who.includes("@") ? who : `${who}@demo.local`;
  await signIn(page, email);
  // Generous: when this spec runs first, its first sign-in meets a cold server (the first render of the home page).
  await expect(page.getByTestId("current-staff")).toContainText(email, { timeout: 30_000 });
  return page;
}

/** A figure on the home page; a block that shows its empty state counts zero. */
async function figure(page: Page, testId: string): Promise<number> {
  await page.goto("/");
  await expect(page.locator('[aria-label="Loading"]')).toHaveCount(0);
  const el = page.getByTestId(testId);
  return (await el.count()) === 0 ? 0 : Number(await el.textContent());
}

async function placeOrder(page: Page, reference: string, quantity = 1): Promise<{ status: number; id: string }> {
  const res = await page.request.post("/api/orders", {
    headers: { origin: ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: reference,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity, currency: "USD" },
      ...(quantity > 1 ? { approvalReason: "Partner promotion" } : {}),
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const body = (await res.json()) as { order?: { id: string }; awaitingApproval?: { id: string } };
  return { status: res.status(), id: body.order?.id ?? body.awaitingApproval!.id };
}

async function mirrored(page: Page, id: string, status: string) {
  await expect
    .poll(async () => ((await (await page.request.get(`/api/orders/${id}`)).json()) as { status: string }).status, {
      timeout: 20_000,
    })
    .toBe(status);
}

/** Changes settings as the admin (or, without `data`, reads them). */
async function settings(browser: Browser, data?: Record<string, unknown>) {
  const admin = await as(browser, "admin");
  const res = data
    ? await admin.request.put("/api/settings", { headers: { origin: ORIGIN }, data })
    : await admin.request.get("/api/settings");
  expect(res.ok(), await res.text()).toBe(true);
  const read = (await res.json()) as { revealQuotaPerHour: number };
  await admin.context().close();
  return read;
}

async function reveal(page: Page, orderId: string) {
  return page.request.post(`/api/orders/${orderId}/reveal`, {
    headers: { origin: ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      ticket: "SUP-HOME-1",
      reason: "Customer lost the email",
      password: DEMO_PASSWORD,
    },
  });
}

/**
 * The home page fits a phone (390×844) and a desktop (1440×900) screen; with
 * E2E_SCREENSHOTS=1 each is kept under test-results/ to be looked at.
 */
async function fitsScreens(page: Page, name: string) {
  for (const [size, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1440, height: 900 }],
  ] as const) {
    await page.setViewportSize(viewport);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${name} home at ${size}: wider than the screen`).toBeLessThanOrEqual(innerWidth);
    if (process.env.E2E_SCREENSHOTS === "1")
      await page.screenshot({ path: path.join("test-results", "home", `${size}-${name}.png`), fullPage: true });
  }
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  await addStaff(HOME_BUYER, "Hana Homebuyer", ["buyer"]);
  product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  const stamp = Date.now();
  const approver = await as(browser, "approver");
  before.waiting = await figure(approver, "home-waiting-count");

  // A withdrawal finance asks for, and an order above the approval threshold.
  const finance = await as(browser, "finance");
  withdrawalAmount = (21 + (stamp % 5000) / 100).toFixed(2);
  const requested = await finance.request.post("/api/withdrawals", {
    headers: { origin: ORIGIN },
    data: { amount: withdrawalAmount, currency: "USD", reason: "Morning sweep of unused funds" },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  ids.withdrawal = ((await requested.json()) as { id: string }).id;
  const buyer = await as(browser, "buyer");
  await settings(browser, { spendApprovalAmount: (product.variants[0]!.price * 1.5).toFixed(2) });
  try {
    refs.spend = `e2e-home-spend-${stamp}`;
    expect((await placeOrder(buyer, refs.spend, 2)).status).toBe(202);
  } finally {
    await settings(browser, { spendApprovalAmount: "" });
  }

  // Orders held by the sandbox until told: one fails, one is fulfilled, one stays reserved.
  const support = await as(browser, "support");
  before.stuck = await figure(support, "home-stuck-count");
  before.failed = await figure(support, "home-support-failed-count");
  const homeBuyer = await as(browser, HOME_BUYER);
  await sandboxControl("PUT", "/fulfilment", { mode: "manual" });
  try {
    for (const kind of ["failed", "fulfilled", "reserved"] as const) refs[kind] = `e2e-home-${kind}-${stamp}`;
    refs.stuck = `e2e-home-stuck-${stamp}`;
    ids.failed = (await placeOrder(homeBuyer, refs.failed)).id;
    ids.fulfilled = (await placeOrder(homeBuyer, refs.fulfilled)).id;
    await placeOrder(homeBuyer, refs.reserved);
    ids.stuck = (await placeOrder(buyer, refs.stuck)).id;
  } finally {
    await sandboxControl("PUT", "/fulfilment", { mode: "auto", delayMs: 300 });
  }
  await sandboxControl("POST", `/orders/${ids.failed}/fail`);
  await sandboxControl("POST", `/orders/${ids.fulfilled}/fulfil`);
  await mirrored(homeBuyer, ids.failed, "failed");
  await mirrored(homeBuyer, ids.fulfilled, "fulfilled");
  // Time is what the UI cannot arrange: this order was placed twenty minutes ago and never finished.
  await withDb((db) =>
    db.query(`UPDATE "Order" SET "upstreamCreatedAt" = "upstreamCreatedAt" - interval '20 minutes' WHERE id = $1`, [ids.stuck]),
  );

  // Support reveals the fulfilled order's codes, then goes past a quota lowered to one an hour.
  expect((await reveal(support, ids.fulfilled)).status()).toBe(200);
  quotaBefore = (await settings(browser)).revealQuotaPerHour;
  await settings(browser, { revealQuotaPerHour: 1 });
  try {
    expect((await reveal(support, ids.fulfilled)).status()).toBe(429);
  } finally {
    await settings(browser, { revealQuotaPerHour: quotaBefore });
  }
  for (const page of [approver, finance, buyer, support, homeBuyer]) await page.context().close();
});

test.afterAll(async () => {
  // The stuck order ends, so that later specs find no order of ours still open.
  if (ids.stuck) await sandboxControl("POST", `/orders/${ids.stuck}/fulfil`).catch(() => undefined);
});

test("an approver's home lists what waits for them, oldest first, with its wait and expiry, and links to where they decide", async ({
  browser,
}) => {
  const page = await as(browser, "approver");
  expect(await figure(page, "home-waiting-count")).toBe(before.waiting + 2);
  const block = page.getByTestId("home-waiting-decisions");
  const amount = `$${Number(withdrawalAmount).toFixed(2)}`;
  const withdrawal = block.getByTestId("home-waiting-item").filter({ hasText: `Withdrawal of ${amount}` });
  const spend = block.getByTestId("home-waiting-item").filter({ hasText: refs.spend });
  await expect(withdrawal).toContainText("asked by");
  await expect(withdrawal.getByTestId("home-waiting-age")).toHaveText(/^waiting (under a minute|\d+ min)$/);
  await expect(withdrawal).toContainText(/expires \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(in 2[34] h/);
  await expect(spend).toContainText(`$${(product.variants[0]!.price * 2).toFixed(2)}`);
  // Oldest first: the withdrawal was asked for before the spend request.
  const order = await block.getByTestId("home-waiting-item").allTextContents();
  expect(order.findIndex((t) => t.includes(amount))).toBeLessThan(order.findIndex((t) => t.includes(refs.spend)));
  await expectNoAxeViolations(page, page.url());
  await fitsScreens(page, "approver");

  await withdrawal.getByRole("link").click();
  await expect(page).toHaveURL(/\/withdrawals\?state=pending/);
  await expect(
    page.locator(`[data-testid="withdrawal"][data-id="${ids.withdrawal}"]`).getByRole("button", { name: "Approve…" }),
  ).toBeVisible();
  await page.goBack();
  await spend.getByRole("link").click();
  await expect(page).toHaveURL(/\/spend-approvals$/);
  await expect(page.getByText(`Order ${refs.spend}`)).toBeVisible();
  await page.context().close();
});

test("a buyer's home counts their orders today by state and offers the failed one to order again", async ({ browser }) => {
  const page = await as(browser, HOME_BUYER);
  expect(await figure(page, "home-orders-today-count")).toBe(3);
  const today = page.getByTestId("home-orders-today");
  for (const status of ["reserved", "fulfilled", "failed"]) {
    await expect(today.locator(`[data-testid="home-orders-today-state"][data-status="${status}"]`)).toContainText("1");
  }
  for (const ref of [refs.failed, refs.fulfilled, refs.reserved])
    await expect(today.getByRole("link", { name: ref })).toBeVisible();
  await expect(page.getByTestId("home-failed-count")).toHaveText("1");
  const failed = page.getByTestId("home-failed-list").locator(`[data-id="${ids.failed}"]`);
  await expect(failed).toContainText("Failed");
  await expectNoAxeViolations(page, page.url());
  await fitsScreens(page, "buyer");

  await failed.getByRole("link", { name: refs.failed, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${ids.failed}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${refs.failed}`);
  await page.goBack();
  await page.getByTestId("home-failed-list").locator(`[data-id="${ids.failed}"]`).getByTestId("home-order-again").click();
  await expect(page).toHaveURL(new RegExp(`/catalog/${encodeURIComponent(product.id)}$`));
  await expect(page.getByRole("button", { name: "Buy now" })).toBeVisible();
  await page.context().close();
});

test("a buyer's home lists their request waiting for approval, with its total, beside their orders today", async ({
  browser,
}) => {
  const page = await as(browser, "buyer");
  await page.goto("/");
  const block = page.getByTestId("home-spend-requests");
  const total = `$${(product.variants[0]!.price * 2).toFixed(2)}`;
  const waiting = block.locator('[data-state="awaiting"]').filter({ hasText: refs.spend });
  await expect(waiting).toContainText(`Order ${refs.spend} · ${total}`);
  await expect(waiting).toContainText("Awaiting approval");
  await expect(waiting).toContainText(/Asked (under a minute|\d+ min) ago · expires \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  expect(Number(await page.getByTestId("home-spend-waiting-count").textContent())).toBeGreaterThanOrEqual(1);
  await expect(block).toContainText("Nothing is bought until one approves.");
  // "Orders placed by you today" no longer reads as if nothing was asked for.
  await expect(page.getByTestId("home-orders-today-waiting")).toContainText(
    /and \d+ waiting for approval \(\$[\d,]+\.\d\d\), not placed yet/,
  );
  await expectNoAxeViolations(page, page.url());
  await fitsScreens(page, "buyer-requests");
  await waiting.getByRole("link").click();
  await expect(page).toHaveURL(/\/spend-approvals#sr_/);
  await expect(page.getByText(`Order ${refs.spend}`)).toBeVisible();
  await page.context().close();
});

test("a buyer with no orders reads so in each block", async ({ browser }) => {
  const fresh = await (await browser.newContext()).newPage();
  await addStaff("home-quiet@demo.local", "Quinn Quiet", ["buyer"]);
  await signIn(fresh, "home-quiet@demo.local");
  await expect(fresh.getByTestId("home-orders-today-count")).toHaveText("0");
  await expect(fresh.getByTestId("home-orders-today-list-empty")).toHaveText(/You have not placed an order today/);
  await expect(fresh.getByTestId("home-failed-list-empty")).toHaveText("None of your orders failed. Nothing to retry.");
  await expect(fresh.getByTestId("home-spend-waiting-count")).toHaveText("0");
  await expect(fresh.getByTestId("home-spend-requests-empty")).toContainText("No order of yours is waiting");
  await fresh.context().close();
});

test("support's home shows the stuck and failed orders, the reveal, and the quota alert, each linking to the order", async ({
  browser,
}) => {
  const page = await as(browser, "support");
  expect(await figure(page, "home-stuck-count")).toBe(before.stuck + 1);
  expect(await figure(page, "home-support-failed-count")).toBe(before.failed + 1);
  await expect(page.getByTestId("home-stuck-list").locator(`[data-id="${ids.stuck}"]`)).toContainText("Reserved");
  await expect(page.getByTestId("home-support-failed-list").locator(`[data-id="${ids.failed}"]`)).toContainText("Failed");
  const reveals = page.getByTestId("home-reveals-list");
  await expect(reveals.locator("li").first()).toContainText(refs.fulfilled);
  await expect(reveals.locator("li").first()).toContainText("support@demo.local · ticket SUP-HOME-1");
  await expect(reveals.getByTestId("home-reveal-outcome").first()).toHaveText("Revealed");
  await expect(page.getByTestId("home-quota-alert")).toContainText("support@demo.local");
  await expect(page.getByTestId("home-reveal-quota")).toHaveText(new RegExp(`^\\d+ of ${quotaBefore}$`));
  await expectNoAxeViolations(page, page.url());
  await fitsScreens(page, "support");

  await page.getByTestId("home-stuck-list").getByRole("link", { name: refs.stuck }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${ids.stuck}$`));
  await page.goBack();
  await reveals.getByRole("link", { name: refs.fulfilled }).first().click();
  await expect(page).toHaveURL(new RegExp(`/orders/${ids.fulfilled}$`));
  await expect(page.getByTestId("reveal-history")).toContainText("SUP-HOME-1");
  await page.context().close();
});
