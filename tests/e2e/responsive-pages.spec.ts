import { expect, test, type Browser, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { E2E_ORIGIN } from "../../playwright.config";
import { ROLES, signInAs } from "./helpers";
import { findProduct } from "./sandbox";

// Every page of every role, as a narrow window (390×844) and a desktop (1440×900) show it. Set
// E2E_SCREENSHOTS=1 to keep a screenshot of each under test-results/screens, for people to look
// at. They are not committed nor compared: the pages show live figures and times, and what this
// spec asserts (fits the screen, reached through the menu, passes axe) is what must hold.
// At 390 px, axe runs in phone-pages.spec.ts, on every page of every role in more states (a
// touch phone: the same width rules, with the larger touch targets); here the narrow window's
// own parts are checked: the menu that replaces the sidebar, and every page fitting the screen.
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const SHOTS = path.join("test-results", "screens");
const writeShots = process.env.E2E_SCREENSHOTS === "1";
type Role = (typeof ROLES)[number];

let orderId = "";
let productId = "";

test.beforeAll(async ({ browser }) => {
  const page = await signedIn(browser, "buyer", DESKTOP);
  const product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD",
  );
  productId = product.id;
  const res = await page.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: `e2e-layout-${Date.now()}`,
      item: { productId, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
    },
  });
  expect(res.ok()).toBe(true);
  orderId = ((await res.json()) as { order: { id: string } }).order.id;
  await page.context().close();
});

async function signedIn(browser: Browser, role: Role, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signInAs(page, role);
  return page;
}

/** Pages reached other than through the menu: the home page and one detail page of each kind the role may read. */
function detailPages(navHrefs: string[]): { name: string; href: string }[] {
  const pages = [{ name: "home", href: "/" }];
  if (navHrefs.includes("/catalog")) pages.push({ name: "product", href: `/catalog/${encodeURIComponent(productId)}` });
  if (navHrefs.includes("/orders")) {
    pages.push({ name: "order", href: `/orders/${encodeURIComponent(orderId)}` });
    pages.push({ name: "bulk-orders", href: "/orders/bulk" });
  }
  return pages;
}

/** Streamed sections have arrived (no skeleton left) and the page is laid out. */
async function settled(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.locator('[aria-label="Loading"]')).toHaveCount(0, { timeout: 20_000 });
}

async function check(page: Page, role: Role, name: string, size: "phone" | "desktop") {
  try {
    await checkOnce(page, role, name, size);
  } catch (error) {
    // A page this role may not open streams its skeleton first, then is sent on to /forbidden
    // (a redirect after streaming has begun is a navigation in the browser, as Next documents);
    // one that lands mid-check is checked again where it ended.
    if (!String(error).includes("Execution context was destroyed")) throw error;
    await checkOnce(page, role, name, size);
  }
}

async function checkOnce(page: Page, role: Role, name: string, size: "phone" | "desktop") {
  await settled(page);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${role} ${name} at ${size}: page wider than the screen`).toBeLessThanOrEqual(innerWidth);
  // At 390 px axe runs in phone-pages.spec.ts (see the top of this file).
  if (size === "desktop") {
    // Every impact, minor and moderate included (heading order, landmarks, regions), not only serious ones.
    const found = await new AxeBuilder({ page }).analyze();
    const violations = found.violations.map(
      (v) => `${v.impact}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    );
    expect(violations, `${role} ${name} at ${size}`).toEqual([]);
  }
  if (writeShots) {
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${size}-${role}-${name}.png`) });
  }
}

for (const role of ROLES) {
  test(`${role} in a narrow window: every page fits the screen and is reached through the menu`, async ({ browser }) => {
    test.setTimeout(240_000);
    const phone = await signedIn(browser, role, PHONE);
    const menuButton = phone.getByRole("button", { name: "Menu", exact: true });
    const drawer = phone.getByRole("dialog", { name: "Menu" });

    // The sidebar gives way to a menu button; the drawer opens, takes focus and closes on Escape.
    await expect(phone.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    // A tap before the page has hydrated does nothing yet: tap again until the drawer opens.
    const openMenu = () =>
      expect(async () => {
        if (!(await drawer.isVisible())) await menuButton.click({ timeout: 2_000 });
        await expect(drawer).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
    await openMenu();
    await expect(menuButton).toHaveAttribute("aria-expanded", "true");
    await expect(drawer.getByRole("link").and(phone.locator(":focus"))).toHaveCount(1);
    const links = drawer.getByRole("navigation", { name: "Main" }).getByRole("link");
    const nav = await links.evaluateAll((as) =>
      as.map((a) => ({ label: a.textContent ?? "", href: (a as HTMLAnchorElement).pathname })),
    );
    expect(nav.length).toBeGreaterThan(0);
    await expect(drawer.getByTestId("current-staff-menu")).toContainText(`${role}@demo.local`);
    await phone.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");

    for (const item of nav) {
      await openMenu();
      await drawer.getByRole("link", { name: item.label, exact: true }).click();
      await expect(phone).toHaveURL(new RegExp(`${item.href}$`));
      await expect(drawer).toBeHidden();
      await expect(phone.getByRole("heading", { level: 1 })).toBeVisible();
      await check(phone, role, item.href.slice(1), "phone");
    }
    for (const other of detailPages(nav.map((n) => n.href))) {
      await phone.goto(other.href);
      await check(phone, role, other.name, "phone");
    }
    await phone.context().close();
  });

  test(`${role} on a desktop: the sidebar stays and every page passes axe`, async ({ browser }) => {
    test.setTimeout(240_000);
    const desktop = await signedIn(browser, role, DESKTOP);
    await expect(desktop.getByRole("button", { name: "Menu", exact: true })).toBeHidden();
    const nav = await desktop
      .getByRole("navigation", { name: "Main" })
      .getByRole("link")
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    for (const page of [...nav.map((href) => ({ name: href.slice(1), href })), ...detailPages(nav)]) {
      await desktop.goto(page.href);
      await check(desktop, role, page.name, "desktop");
    }
    await desktop.context().close();
  });
}
