import { expect, test, type Page } from "@playwright/test";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { ROLES } from "./helpers";
import { arrange, errorStatesOf, pagesOf, signedIn, tidyUp, type Fixtures, type Role } from "./every-page";
import { expectNoAxeViolations } from "./axe";

// Every page of every role, as a narrow window (390×844) and a desktop (1440×900) show it. Set
// E2E_SCREENSHOTS=1 to keep a screenshot of each under test-results/screens, for people to look
// at. They are not committed nor compared: the pages show live figures and times, and what this
// spec asserts (fits the screen, reached through the menu, passes axe) is what must hold.
// The desktop visits the same pages, states and error states as the touch phone
// (tests/e2e/every-page.ts), where phone-pages.spec.ts runs axe at 390 px and checks that each
// page fits; here the narrow window's own parts are checked: the menu that replaces the
// sidebar, and each page it leads to fitting the window.
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const SHOTS = path.join("test-results", "screens");
const writeShots = process.env.E2E_SCREENSHOTS === "1";

let fixtures: Fixtures;

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

/** A list's counts by status ("Failed: 0"): coloured only above zero, so that none reads as trouble where there is none. */
async function expectZeroCountsPlain(page: Page, testId: string) {
  const counts = await page
    .getByTestId(testId)
    .getByRole("link")
    .evaluateAll((links) => {
      // The text's colour as RGB (Tailwind's colours are oklch), through a pixel of a canvas.
      const pixel = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
      return links.map((a) => {
        pixel.fillStyle = getComputedStyle(a).color;
        pixel.fillRect(0, 0, 1, 1);
        const [r, g, b] = pixel.getImageData(0, 0, 1, 1).data;
        return { text: a.textContent ?? "", red: r! > g! + 60 && r! > b! + 60 };
      });
    });
  const zeros = counts.filter((c) => /: 0$/.test(c.text));
  expect(zeros.length, `${testId}: some count is zero`).toBeGreaterThan(0);
  for (const zero of zeros) expect.soft(zero.red, `${testId}: "${zero.text}" in red`).toBe(false);
}

async function checkOnce(page: Page, role: Role, name: string, size: "phone" | "desktop") {
  await settled(page);
  const { scrollWidth, innerWidth, scrolledTables } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // A table's region that scrolls sideways (components/ui/table-scroll.tsx), by its name.
    scrolledTables: [...document.querySelectorAll('[role="region"]:has(> table)')]
      .filter((region) => region.scrollWidth > region.clientWidth + 1)
      .map((region) => `${region.getAttribute("aria-label")}: ${region.scrollWidth} px in ${region.clientWidth}`),
  }));
  expect(scrollWidth, `${role} ${name} at ${size}: page wider than the screen`).toBeLessThanOrEqual(innerWidth);
  // The audit log's six columns fit a desktop's content column: it wraps instead of hiding what is past the edge.
  if (size === "desktop" && name === "audit") expect(scrolledTables, `${role} ${name}: tables scrolling sideways`).toEqual([]);
  // At 390 px axe runs in phone-pages.spec.ts (see the top of this file).
  if (size === "desktop") {
    // Every impact, minor and moderate included (heading order, landmarks, regions), not only serious ones.
    await expectNoAxeViolations(page, `${role} ${name} at ${size}`, { soft: true });
  }
  if (writeShots) {
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${size}-${role}-${name}.png`), fullPage: size === "desktop" });
  }
}

for (const role of ROLES) {
  test(`${role} in a narrow window: every page fits the screen and is reached through the menu`, async ({ browser }) => {
    test.setTimeout(480_000);
    const phone = await signedIn(browser, role, { viewport: PHONE });
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
    // The pages outside the menu are checked at this width by phone-pages.spec.ts, with more (touch targets, table cells).
    await phone.context().close();
  });

  test(`${role} on a desktop: the sidebar stays, and every page and error state passes axe`, async ({ browser }) => {
    test.setTimeout(480_000);
    const desktop = await signedIn(browser, role, { viewport: DESKTOP });
    await expect(desktop.getByRole("button", { name: "Menu", exact: true })).toBeHidden();
    const menu = await desktop
      .getByRole("navigation", { name: "Main" })
      .getByRole("link")
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    for (const page of pagesOf(role, menu, fixtures)) {
      await desktop.goto(page.href);
      await check(desktop, role, page.name, "desktop");
      if (page.name === "events") await expectZeroCountsPlain(desktop, "event-counts");
      if (page.name === "outbox") await expectZeroCountsPlain(desktop, "outbox-counts");
    }
    for (const state of errorStatesOf(role, fixtures)) {
      await state.arrive(desktop);
      await check(desktop, role, state.name, "desktop");
    }
    await desktop.context().close();
  });
}
