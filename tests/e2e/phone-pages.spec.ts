import { expect, test, type Browser, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { ROLES, signInAs } from "./helpers";
import { can } from "../../lib/auth/permissions";
import { findProduct } from "./sandbox";

// Every page each role can open, on a phone with a touch screen (390×844, isMobile, hasTouch), in
// the states the issue measured: an order page after a reveal, a bulk file's results with a
// skipped row, the audit log. On each: nothing wider than the screen, every control at least
// 44×44 px to a finger (WCAG 2.5.5), every table cell (a list's status, total, reason, action)
// inside the screen without scrolling sideways, and no axe violation of any impact.
// E2E_SCREENSHOTS=1 keeps a full-page screenshot of each under test-results/phone, to look at.
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const MIN_TAP = 44;
const SHOTS = path.join("test-results", "phone");
type Role = (typeof ROLES)[number];

let productId = "";
let orderId = "";
let bulkId = "";
let withdrawalId = "";

async function phoneAs(browser: Browser, role: Role): Promise<Page> {
  const page = await (await browser.newContext(PHONE)).newPage();
  await signInAs(page, role);
  return page;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const buyer = await phoneAs(browser, "buyer");
  const product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  productId = product.id;
  const variantId = product.variants[0]!.id;
  const placed = await buyer.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: {
      idempotencyKey: randomUUID(),
      clientReference: `e2e-phone-${Date.now()}`,
      item: { productId, variantId, quantity: 1, currency: product.currency },
    },
  });
  expect(placed.ok(), await placed.text()).toBe(true);
  orderId = ((await placed.json()) as { order: { id: string } }).order.id;

  // A bulk file of two good rows and one that cannot be ordered: confirmed, the bad row is skipped.
  const batch = `e2e-phone-bulk-${randomUUID().slice(0, 8)}`;
  const csv = [
    "productId,variantId,value,quantity,clientReference,phoneNumber",
    `${productId},${variantId},,1,${batch}-1,`,
    `${productId},${variantId},,1,${batch}-2,`,
    `${productId},var_not_a_variant,,1,${batch}-bad,`,
  ].join("\r\n");
  const uploaded = await buyer.request.post("/api/bulk-orders", {
    headers: { origin: E2E_ORIGIN },
    data: { fileName: `${batch}.csv`, csv: `${csv}\r\n` },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  bulkId = ((await uploaded.json()) as { id: string }).id;
  const confirmed = await buyer.request.post(`/api/bulk-orders/${bulkId}/confirm`, { headers: { origin: E2E_ORIGIN }, data: {} });
  expect(confirmed.ok(), await confirmed.text()).toBe(true);

  await expect
    .poll(async () => ((await (await buyer.request.get(`/api/orders/${orderId}`)).json()) as { status?: string }).status, {
      timeout: 30_000,
    })
    .toBe("fulfilled");
  await expect
    .poll(async () => ((await (await buyer.request.get(`/api/bulk-orders/${bulkId}`)).json()) as { state: string }).state, {
      timeout: 60_000,
    })
    .toBe("done");
  await buyer.context().close();

  // Support reveals the order's codes: every order page now shows a reveal history.
  const support = await phoneAs(browser, "support");
  const revealed = await support.request.post(`/api/orders/${orderId}/reveal`, {
    headers: { origin: E2E_ORIGIN },
    data: {
      idempotencyKey: randomUUID(),
      ticket: "SUP-PHONE-1",
      reason: "Customer says the email with the code never arrived in their inbox",
      password: DEMO_PASSWORD,
    },
  });
  expect(revealed.ok(), await revealed.text()).toBe(true);
  await support.context().close();

  // A withdrawal awaiting approval: its card and the approver's buttons on the withdrawals page.
  const finance = await phoneAs(browser, "finance");
  const requested = await finance.request.post("/api/withdrawals", {
    headers: { origin: E2E_ORIGIN },
    data: { amount: "21.37", currency: "USD", reason: "Phone layout check, cancelled when the spec ends" },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  withdrawalId = ((await requested.json()) as { id: string }).id;
  await finance.context().close();
});

test.afterAll(async ({ browser }) => {
  if (!withdrawalId) return;
  const finance = await phoneAs(browser, "finance");
  const cancelled = await finance.request.post(`/api/withdrawals/${withdrawalId}/cancellation`, {
    headers: { origin: E2E_ORIGIN },
  });
  expect(cancelled.ok(), await cancelled.text()).toBe(true);
  await finance.context().close();
});

/** The pages a role can open: its menu, the home page, and one detail page of each kind it may read. */
async function pagesOf(page: Page, role: Role): Promise<{ name: string; href: string }[]> {
  const menu = await page.locator("#main-menu nav a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
  const pages = [{ name: "home", href: "/" }, ...menu.map((href) => ({ name: href.slice(1).replaceAll("/", "-"), href }))];
  if (menu.includes("/catalog")) pages.push({ name: "product", href: `/catalog/${encodeURIComponent(productId)}` });
  if (menu.includes("/orders")) {
    pages.push({ name: "order-revealed", href: `/orders/${encodeURIComponent(orderId)}` });
    if (can([role], "orders.create")) pages.push({ name: "bulk-orders", href: "/orders/bulk" });
    pages.push({ name: "bulk-results", href: `/orders/bulk/${bulkId}` });
  }
  if (menu.includes("/wallet")) pages.push({ name: "reconciliation", href: "/wallet/reconciliation" });
  // Everyone's inbox and notification settings (the bell and the menu's footer link to them).
  pages.push(
    { name: "notifications", href: "/notifications" },
    { name: "notification-settings", href: "/account/notifications" },
  );
  if (menu.includes("/events")) {
    pages.push({ name: "outbox", href: "/events/outbox" }, { name: "caught-mail", href: "/events/caught-mail" });
  }
  return pages;
}

/** Streamed sections have arrived (no skeleton left) and the page is laid out. */
async function settled(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.locator('[aria-label="Loading"]')).toHaveCount(0, { timeout: 20_000 });
}

/** What a finger cannot hit, what sticks out past the screen's right edge. */
function measure({ minTap, width }: { minTap: number; width: number }) {
  const describe = (el: Element) => {
    const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    const name = el.getAttribute("aria-label") ?? el.getAttribute("name") ?? text;
    return `<${el.tagName.toLowerCase()}${el.getAttribute("type") ? ` type=${el.getAttribute("type")}` : ""}> "${name}"`;
  };
  const shown = (el: Element) => {
    const box = el.getBoundingClientRect();
    // Screen-reader-only text (1×1 px) and what is hidden (a closed menu, a closed <details>) are not targets.
    return box.width > 1 && box.height > 1 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  };
  const small: string[] = [];
  // With a modal open (the menu), the page behind it is inert: only the modal's controls count.
  const scope = document.querySelector("dialog:modal") ?? document;
  const controls = scope.querySelectorAll(
    'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], summary',
  );
  for (const el of controls) {
    if (!shown(el)) continue;
    // A checkbox or radio button is hit through the label around it.
    const target = el.matches('input[type="checkbox"], input[type="radio"]') ? (el.closest("label") ?? el) : el;
    const box = target.getBoundingClientRect();
    if (box.width < minTap - 0.01 || box.height < minTap - 0.01)
      small.push(`${describe(el)} ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  const outside: string[] = [];
  for (const cell of document.querySelectorAll("td, tbody th")) {
    if (!shown(cell)) continue;
    const box = cell.getBoundingClientRect();
    if (box.left < -0.5 || box.right > width + 0.5) {
      const label = cell.getAttribute("data-label") ?? cell.closest("table")?.getAttribute("data-testid") ?? "";
      outside.push(`${label}: ${describe(cell)} at ${Math.round(box.left)}–${Math.round(box.right)} px`);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, small: [...new Set(small)], outside };
}

async function check(page: Page, who: string, name: string) {
  await settled(page);
  const where = `${who} ${name}`;
  // Not window.innerWidth: a phone widens its layout viewport (zooms out) to fit a page that is too wide.
  const m = await page.evaluate(measure, { minTap: MIN_TAP, width: PHONE.viewport.width });
  expect.soft(m.scrollWidth, `${where}: page wider than the screen`).toBeLessThanOrEqual(m.width);
  expect.soft(m.small, `${where}: controls smaller than ${MIN_TAP}×${MIN_TAP} px`).toEqual([]);
  expect.soft(m.outside, `${where}: table cells outside the screen`).toEqual([]);
  const axe = await new AxeBuilder({ page }).analyze();
  const violations = axe.violations.map(
    (v) => `${v.impact}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect.soft(violations, `${where}: axe`).toEqual([]);
  if (process.env.E2E_SCREENSHOTS === "1") {
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${who}-${name}.png`), fullPage: true });
  }
}

/** The cells of a list that carry `label` (each card's field of that name) are there and inside the screen. */
async function expectCellsOnScreen(page: Page, table: string, label: string) {
  const cells = page.getByTestId(table).locator(`[data-label="${label}"]`);
  expect.soft(await cells.count(), `${table} has ${label} cells`).toBeGreaterThan(0);
  // Inside the screen's width: shown, not cut off at the right edge, and reached by scrolling down only.
  const spans = await cells.evaluateAll((els) =>
    els.map((el) => {
      const box = el.getBoundingClientRect();
      return { left: Math.round(box.left), right: Math.round(box.right), shown: box.width > 0 && el.checkVisibility() };
    }),
  );
  const outside = spans.filter((s) => !s.shown || s.left < 0 || s.right > PHONE.viewport.width);
  expect.soft(outside, `${table}: ${label} cells outside the screen`).toEqual([]);
}

test("the sign-in page on a touch phone fits, takes a finger, and axe finds nothing", async ({ browser }) => {
  const page = await (await browser.newContext(PHONE)).newPage();
  await page.goto("/signin");
  await check(page, "signed-out", "signin");
  await page.context().close();
});

test("a one-time link's pages on a touch phone (the password form, a refused link) fit, take a finger, and axe finds nothing", async ({
  browser,
}) => {
  const admin = await phoneAs(browser, "admin");
  const made = await admin.request.post("/api/staff/invitations", {
    headers: { origin: E2E_ORIGIN },
    data: { email: `phone-invite-${randomUUID().slice(0, 8)}@e2e.local`, name: "Phone Invitee", roles: ["viewer"] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { url } = ((await made.json()) as { delivery: { url: string } }).delivery;
  await admin.context().close();

  const page = await (await browser.newContext(PHONE)).newPage();
  await page.goto(url);
  await expect(page.getByRole("form", { name: "Set your password" })).toBeVisible();
  await check(page, "signed-out", "invitation");
  // The form's field errors shown, as a person who typed a short password sees them.
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Repeat the password").fill("short");
  await page.getByRole("button", { name: "Set password and continue" }).click();
  await expect(page.getByTestId("error-password")).toBeVisible();
  await check(page, "signed-out", "invitation-errors");
  await page.goto(`/signin/reset-password/${"A".repeat(43)}`);
  await expect(page.getByTestId("link-refused")).toBeVisible();
  await check(page, "signed-out", "link-refused");
  await page.context().close();
});

for (const role of ROLES) {
  test(`${role} on a touch phone: every page fits, every control takes a finger, every list's key fields show, axe finds nothing`, async ({
    browser,
  }) => {
    test.setTimeout(480_000);
    const page = await phoneAs(browser, role);
    for (const { name, href } of await pagesOf(page, role)) {
      await page.goto(href);
      await check(page, role, name);
      if (name === "orders") {
        await expectCellsOnScreen(page, "orders-table", "Status");
        await expectCellsOnScreen(page, "orders-table", "Total");
      }
      if (name === "audit") await expectCellsOnScreen(page, "audit-table", "What");
      if (name === "bulk-results") {
        const skipped = page.getByTestId("bulk-rows").locator('tr[data-state="skipped"]');
        await expect(skipped).toHaveCount(1);
        const reason = (await skipped.getByTestId("row-errors").boundingBox())!;
        expect
          .soft(reason.x + reason.width, "the skipped row's reason inside the screen")
          .toBeLessThanOrEqual(PHONE.viewport.width);
        await expectCellsOnScreen(page, "bulk-rows", "Result");
      }
      if (name === "order-revealed") {
        await expect(page.getByTestId("reveal-history")).toContainText("SUP-PHONE-1");
        await expectCellsOnScreen(page, "reveal-history", "Outcome");
        await expectCellsOnScreen(page, "reveal-history", "Reason");
      }
    }
    // Support's own view of an order: the reveal form open.
    if (role === "support") {
      await page.goto(`/orders/${encodeURIComponent(orderId)}`);
      await settled(page);
      await page.getByRole("button", { name: "Reveal codes" }).click();
      await expect(page.getByRole("form", { name: "Reveal codes" })).toBeVisible();
      await check(page, role, "order-reveal-form");
      // Right after a reveal: the codes, their Show and Copy buttons, and the history with this reveal.
      const form = page.getByRole("form", { name: "Reveal codes" });
      await form.getByLabel("Ticket reference").fill("SUP-PHONE-2");
      await form.getByLabel("Reason").fill("Customer on the phone asks for the code again");
      await form.getByLabel("Your password").fill(DEMO_PASSWORD);
      await form.getByRole("button", { name: "Reveal" }).click();
      await expect(page.getByTestId("revealed-codes")).toBeVisible();
      await expect(page.getByTestId("reveal-history")).toContainText("SUP-PHONE-2");
      await check(page, role, "order-codes-shown");
    }
    // The staff list with one person's editor open.
    if (role === "admin") {
      await page.goto("/staff");
      await settled(page);
      await page.getByTestId("staff-row-viewer@demo.local").getByRole("button", { name: "Manage" }).click();
      await expect(page.getByRole("button", { name: "Close" })).toBeVisible();
      await check(page, role, "staff-manage");
    }
    // The menu drawer, open.
    await page.goto("/");
    await settled(page);
    await expect(async () => {
      await page.getByRole("button", { name: "Menu", exact: true }).click({ timeout: 2_000 });
      await expect(page.getByRole("dialog", { name: "Menu" })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await check(page, role, "menu");
    await page.context().close();
  });
}
