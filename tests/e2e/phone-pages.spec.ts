import { expect, test, type Browser, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { addStaff, ROLES, signIn } from "./helpers";
import { arrange, errorStatesOf, pagesOf, signedIn, tidyUp, type Fixtures, type Role } from "./every-page";
import { expectNoAxeViolations } from "./axe";

// Every page each role can open, on a phone with a touch screen (390×844, isMobile, hasTouch), in
// the states people meet and the error states (tests/e2e/every-page.ts lists them; the desktop
// checks the same list in responsive-pages.spec.ts), the sign-in pages and the second factor's
// enrolment. On each: nothing wider than the screen, every control at least 44×44 px to a finger
// (WCAG 2.5.5), every table cell (a list's status, total, reason, action) inside the screen
// without scrolling sideways, and no axe violation of any impact.
// E2E_SCREENSHOTS=1 keeps a full-page screenshot of each under test-results/phone, to look at.
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const MIN_TAP = 44;
const SHOTS = path.join("test-results", "phone");

let fixtures: Fixtures;

const phoneAs = (browser: Browser, role: Role) => signedIn(browser, role, PHONE);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  fixtures = await arrange(browser);
});

test.afterAll(async ({ browser }) => {
  await tidyUp(browser, fixtures ?? {});
});

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
  await expectNoAxeViolations(page, `${where}: axe`, { soft: true });
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

/**
 * The admin home's upstream budget block: inside the screen, and its "Who spent the last hour's
 * calls" caption on a line or two across the card, not squeezed to a word a line.
 */
async function expectBudgetBlockReadable(page: Page) {
  const block = page.getByTestId("home-admin-budget");
  const box = (await block.boundingBox())!;
  expect.soft(box.x + box.width, "the budget block inside the screen").toBeLessThanOrEqual(PHONE.viewport.width);
  // The fixtures' orders and catalog reads were someone's calls in the last hour.
  const caption = block.getByTestId("home-budget-spenders").locator("caption");
  await expect(caption).toHaveText("Who spent the last hour's calls");
  const shape = await caption.evaluate((el) => {
    const { width, height } = el.getBoundingClientRect();
    return { width, lines: Math.round(height / parseFloat(getComputedStyle(el).lineHeight)) };
  });
  expect.soft(shape.lines, "the caption's lines").toBeLessThanOrEqual(2);
  expect.soft(shape.width, "the caption as wide as its card").toBeGreaterThan(box.width / 2);
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

test("the second factor's enrolment on a touch phone (the choice, the authenticator's key, a wrong code) fits, takes a finger, and axe finds nothing", async ({
  browser,
}) => {
  const email = "phone-enrol@e2e.local";
  await addStaff(email, "Pat Phone", ["finance"]);
  const admin = await phoneAs(browser, "admin");
  const requireFor = (roles: string[]) =>
    admin.request.put("/api/settings/second-factor-policy", { headers: { origin: E2E_ORIGIN }, data: { roles } });
  expect((await requireFor(["finance"])).ok()).toBe(true);
  try {
    const page = await (await browser.newContext(PHONE)).newPage();
    await signIn(page, email);
    await page.waitForURL(/\/signin\/enrol/);
    await check(page, "enrolling", "enrol");
    await expect(async () => {
      await page.getByRole("button", { name: "Set up an authenticator app" }).click({ timeout: 2_000 });
      await expect(page.getByTestId("totp-key")).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await check(page, "enrolling", "enrol-authenticator");
    await page.getByLabel("Code from the app").fill("000000");
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(page.getByTestId("error-code")).toContainText("That code is not right.");
    await check(page, "enrolling", "enrol-wrong-code");
    await page.context().close();
  } finally {
    expect((await requireFor([])).ok()).toBe(true);
    await admin.context().close();
  }
});

for (const role of ROLES) {
  test(`${role} on a touch phone: every page and error state fits, every control takes a finger, every list's key fields show, axe finds nothing`, async ({
    browser,
  }) => {
    test.setTimeout(480_000);
    const page = await phoneAs(browser, role);
    const menu = await page.locator("#main-menu nav a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    for (const { name, href } of pagesOf(role, menu, fixtures)) {
      await page.goto(href);
      await check(page, role, name);
      if (name === "home" && role === "admin") await expectBudgetBlockReadable(page);
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
        await expect(page.getByTestId("reveal-history")).toContainText("SUP-PAGES-1");
        await expectCellsOnScreen(page, "reveal-history", "Outcome");
        await expectCellsOnScreen(page, "reveal-history", "Reason");
      }
    }
    for (const state of errorStatesOf(role, fixtures)) {
      await state.arrive(page);
      await check(page, role, state.name);
    }
    // Support's own view of an order: the reveal form open.
    if (role === "support") {
      await page.goto(`/orders/${encodeURIComponent(fixtures.orderId)}`);
      await settled(page);
      await page.getByRole("button", { name: "Reveal codes" }).click();
      await expect(page.getByRole("form", { name: "Reveal codes" })).toBeVisible();
      await check(page, role, "order-reveal-form");
      // Right after a reveal: the codes, their Show and Copy buttons, and the history with this reveal.
      const form = page.getByRole("form", { name: "Reveal codes" });
      await form.getByLabel("Ticket reference").fill("SUP-PAGES-2");
      await form.getByLabel("Reason").fill("Customer on the phone asks for the code again");
      await form.getByLabel("Your password").fill(DEMO_PASSWORD);
      await form.getByRole("button", { name: "Reveal" }).click();
      await expect(page.getByTestId("revealed-codes")).toBeVisible();
      await expect(page.getByTestId("reveal-history")).toContainText("SUP-PAGES-2");
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
