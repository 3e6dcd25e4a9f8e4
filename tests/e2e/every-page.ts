import { expect, type Browser, type BrowserContextOptions, type Locator, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { ROLES, signInAs } from "./helpers";
import { can } from "../../lib/auth/permissions";
import { findProduct } from "./sandbox";

/**
 * What the page specs (phone-pages.spec.ts on a touch phone, responsive-pages.spec.ts on a
 * desktop) visit: every page each role can open, in the states people meet (an order after a
 * reveal, a bulk file with a skipped row, a withdrawal waiting for approval, an order that needs
 * approval) and the error states (a form's field errors, a refused action, a page that is not
 * there). Both sizes visit the same list, so a page added here is checked at both.
 */
export type Role = (typeof ROLES)[number];
export type Fixtures = { productId: string; orderId: string; bulkId: string; withdrawalId: string };
export type Visit = { name: string; href: string };
/** A state reached by doing something on a page (submitting a form empty); `arrive` waits until it shows. */
export type ErrorState = { name: string; arrive: (page: Page) => Promise<void> };

export async function signedIn(browser: Browser, role: Role, context: BrowserContextOptions): Promise<Page> {
  const page = await (await browser.newContext(context)).newPage();
  await signInAs(page, role);
  return page;
}

/**
 * An order that support revealed, a bulk file of two good rows and one that is skipped, a
 * withdrawal waiting for approval, and an approval threshold that every order passes (the order
 * form asks a buyer why). `tidyUp` puts the threshold back and cancels the withdrawal.
 */
export async function arrange(browser: Browser): Promise<Fixtures> {
  const buyer = await signedIn(browser, "buyer", {});
  const product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  const variantId = product.variants[0]!.id;
  const placed = await buyer.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: {
      idempotencyKey: randomUUID(),
      clientReference: `e2e-pages-${Date.now()}`,
      item: { productId: product.id, variantId, quantity: 1, currency: product.currency },
    },
  });
  expect(placed.ok(), await placed.text()).toBe(true);
  const orderId = ((await placed.json()) as { order: { id: string } }).order.id;

  const batch = `e2e-pages-bulk-${randomUUID().slice(0, 8)}`;
  const csv = [
    "productId,variantId,value,quantity,clientReference,phoneNumber",
    `${product.id},${variantId},,1,${batch}-1,`,
    `${product.id},${variantId},,1,${batch}-2,`,
    `${product.id},var_not_a_variant,,1,${batch}-bad,`,
  ].join("\r\n");
  const uploaded = await buyer.request.post("/api/bulk-orders", {
    headers: { origin: E2E_ORIGIN },
    data: { fileName: `${batch}.csv`, csv: `${csv}\r\n` },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const bulkId = ((await uploaded.json()) as { id: string }).id;
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

  const support = await signedIn(browser, "support", {});
  const revealed = await support.request.post(`/api/orders/${orderId}/reveal`, {
    headers: { origin: E2E_ORIGIN },
    data: {
      idempotencyKey: randomUUID(),
      ticket: "SUP-PAGES-1",
      reason: "Customer says the email with the code never arrived in their inbox",
      password: DEMO_PASSWORD,
    },
  });
  expect(revealed.ok(), await revealed.text()).toBe(true);
  await support.context().close();

  const finance = await signedIn(browser, "finance", {});
  const requested = await finance.request.post("/api/withdrawals", {
    headers: { origin: E2E_ORIGIN },
    data: { amount: "21.37", currency: "USD", reason: "Page layout check, cancelled when the spec ends" },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  const withdrawalId = ((await requested.json()) as { id: string }).id;
  await finance.context().close();

  await setApprovalThreshold(browser, "0.01");
  return { productId: product.id, orderId, bulkId, withdrawalId };
}

export async function tidyUp(browser: Browser, fixtures: Partial<Fixtures>) {
  await setApprovalThreshold(browser, "");
  if (!fixtures.withdrawalId) return;
  const finance = await signedIn(browser, "finance", {});
  const cancelled = await finance.request.post(`/api/withdrawals/${fixtures.withdrawalId}/cancellation`, {
    headers: { origin: E2E_ORIGIN },
  });
  expect(cancelled.ok(), await cancelled.text()).toBe(true);
  await finance.context().close();
}

async function setApprovalThreshold(browser: Browser, amount: string) {
  const admin = await signedIn(browser, "admin", {});
  const res = await admin.request.put("/api/settings", {
    headers: { origin: E2E_ORIGIN },
    data: { spendApprovalAmount: amount },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await admin.context().close();
}

/** The pages a role can open (its menu, home, a detail page of each kind it may read) and two it cannot find. */
export function pagesOf(role: Role, menu: string[], f: Fixtures): Visit[] {
  const pages = [{ name: "home", href: "/" }, ...menu.map((href) => ({ name: href.slice(1).replaceAll("/", "-"), href }))];
  if (menu.includes("/catalog")) pages.push({ name: "product", href: `/catalog/${encodeURIComponent(f.productId)}` });
  if (can([role], "catalog.watch")) pages.push({ name: "catalog-watches", href: "/catalog/watches" });
  if (menu.includes("/orders")) {
    pages.push({ name: "order-revealed", href: `/orders/${encodeURIComponent(f.orderId)}` });
    if (can([role], "orders.create")) pages.push({ name: "bulk-orders", href: "/orders/bulk" });
    pages.push({ name: "bulk-results", href: `/orders/bulk/${f.bulkId}` });
    pages.push({ name: "order-unknown", href: "/orders/ord_not_a_known_order" });
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
  // A page that is not there, and one this role may not open (sent on to "Not permitted").
  pages.push({ name: "not-found", href: "/no-such-page" });
  if (!menu.includes("/audit")) pages.push({ name: "forbidden", href: "/audit" });
  return pages;
}

/** A click before the page has hydrated does nothing yet: click again until what it brings shows. */
async function clickUntil(button: Locator, shown: Locator) {
  await expect(async () => {
    await button.click({ timeout: 2_000 });
    await expect(shown).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** The error states each role meets on its own pages: field errors (on tinted boxes too) and refused actions. */
export function errorStatesOf(role: Role, f: Fixtures): ErrorState[] {
  const states: Record<Role, ErrorState[]> = {
    admin: [
      {
        name: "invite-field-errors",
        arrive: async (page) => {
          await page.goto("/staff");
          const form = page.getByRole("form", { name: "Invite a person" });
          await clickUntil(form.getByRole("button", { name: "Invite" }), form.getByTestId("error-roles"));
        },
      },
    ],
    buyer: [
      {
        // The reason asked for on the order form's tinted box (the threshold set by `arrange`).
        name: "approval-reason-error",
        arrive: async (page) => {
          await page.goto(`/catalog/${encodeURIComponent(f.productId)}`);
          await expect(page.getByTestId("needs-approval")).toBeVisible();
          await clickUntil(
            page.getByRole("button", { name: "Ask for approval" }).first(),
            page.getByTestId("error-approvalReason"),
          );
        },
      },
    ],
    support: [
      {
        // Field errors first, then a reveal refused for a wrong password (said at the field).
        name: "reveal-refused",
        arrive: async (page) => {
          await page.goto(`/orders/${encodeURIComponent(f.orderId)}`);
          const form = page.getByRole("form", { name: "Reveal codes" });
          await clickUntil(page.getByRole("button", { name: "Reveal codes" }), form);
          await form.getByRole("button", { name: "Reveal" }).click();
          await expect(form.getByTestId("error-ticket")).toBeVisible();
          await form.getByLabel("Ticket reference").fill("SUP-PAGES-REFUSED");
          await form.getByLabel("Reason").fill("Checking how a refused reveal reads");
          await form.getByLabel("Your password").fill("not the password");
          await form.getByRole("button", { name: "Reveal" }).click();
          await expect(form.getByTestId("error-password")).toHaveText("That password is not right.");
        },
      },
    ],
    finance: [
      {
        name: "withdrawal-field-errors",
        arrive: async (page) => {
          await page.goto("/withdrawals");
          const form = page.getByRole("form", { name: "Request a withdrawal" });
          await clickUntil(form.getByRole("button", { name: "Get quote" }), form.locator('[aria-invalid="true"]').first());
        },
      },
      {
        // A refused action: more than the wallet holds, refused with the problem and its reference.
        name: "withdrawal-refused",
        arrive: async (page) => {
          const form = page.getByRole("form", { name: "Request a withdrawal" });
          await form.getByLabel("Amount").fill("999999999.00");
          await form.getByRole("button", { name: "Get quote" }).click();
          await expect(form.getByTestId("withdrawal-problem")).toContainText("Above the available balance");
        },
      },
    ],
    approver: [
      {
        // A rejection without a reason: the field error on the decision panel's tinted box.
        name: "reject-without-reason",
        arrive: async (page) => {
          await page.goto("/withdrawals");
          const card = page.locator(`[data-testid="withdrawal"][data-id="${f.withdrawalId}"]`);
          await clickUntil(card.getByRole("button", { name: "Reject…" }), card.getByLabel("Why is it rejected?"));
          await card.getByRole("button", { name: "Reject", exact: true }).click();
          await expect(card.getByLabel("Why is it rejected?")).toHaveAttribute("aria-invalid", "true");
        },
      },
    ],
    viewer: [],
  };
  return states[role];
}
