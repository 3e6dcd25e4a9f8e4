import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./helpers";
import { findProduct, sandboxControl } from "./sandbox";

/**
 * When the Issuing Service is slow, a person still sees at once that the app heard them: a click
 * on a link shows that the page is loading, and a search that it is searching, within 200 ms,
 * however long the upstream then takes (issue 39: 8.2 s of the old page after a click on
 * Catalog, 8.5 s of nothing after a search). Times are taken in the page (performance.now() at
 * the click or keystroke, and when the busy element first appears), not by Playwright's polling.
 */
const LATENCY_MS = 5_000;
const AT_ONCE_MS = 200;

const slowCatalog = () => sandboxControl("PUT", "/faults", { latencyMs: LATENCY_MS, pathPrefix: "/api/v1/products" });

test.describe("a slow upstream", () => {
  // Seconds of latency on every catalog read, on a machine that may be busy: room to finish.
  test.setTimeout(120_000);
  test.afterEach(async () => {
    await sandboxControl("PUT", "/faults", {});
  });

  test("a click on a nav link shows that the page is loading at once, then the page", async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/orders");
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
    await page.waitForFunction(() => document.documentElement.dataset.linksRouted === "1");
    await slowCatalog();
    // The bar, or a skeleton: something busy that says so to a screen reader. It may be gone again
    // by the time a locator looks (the page's frame comes fast; the products stream in after it),
    // so what it said is taken when it appears.
    await watchFor(page, "click", '[aria-busy="true"] [role="status"]');

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Catalog" }).click();
    expect(await elapsed(page)).toBeLessThan(AT_ONCE_MS);
    expect(await busyText(page)).toMatch(/Loading/);

    await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("product-card").first()).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('[aria-label="Loading"]')).toHaveCount(0);
  });

  test("a catalog search shows that it is searching at once, then its results", async ({ page }) => {
    const product = await findProduct((p) => p.isAvailable && p.type === "gift-card");
    // A query no one has asked in the last minute, so the catalog's cache cannot answer it:
    // the product's first word in a case of its own (the search ignores case).
    const word = product.name.split(" ")[0]!;
    const query = [...word].map((c, i) => ((Date.now() >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join("");
    await signInAs(page, "buyer");
    await page.goto("/catalog");
    await expect(page.getByTestId("product-card").first()).toBeVisible({ timeout: 30_000 });
    await slowCatalog();
    await watchFor(page, "input", '[data-testid="catalog-searching"]:not(:empty)');

    await page.getByRole("searchbox", { name: "Search" }).pressSequentially(query);
    expect(await elapsed(page)).toBeLessThan(AT_ONCE_MS);
    await expect(page.getByRole("search", { name: "Search the catalog" })).toHaveAttribute("aria-busy", "true");

    // The upstream takes seconds: the old results give way to a skeleton, then to the new ones.
    await expect(page).toHaveURL(/q=/);
    await expect(page.getByTestId("catalog-loading")).toBeVisible();
    await expect(page.getByTestId("product-card").first()).toContainText(
      new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"),
      {
        timeout: 30_000,
      },
    );
    await expect(page.getByTestId("catalog-loading")).toHaveCount(0);
    await expect(page.getByRole("search", { name: "Search the catalog" })).toHaveAttribute("aria-busy", "false");
  });
});

/**
 * Notes in the page when the first `event` (click, input) happens, and when an element matching
 * `selector` first appears after it and what it said. The script is a string: the test's compiler would add
 * helpers of its own to a function that the page does not have.
 */
async function watchFor(page: Page, event: "click" | "input", selector: string) {
  await page.evaluate(`(() => {
    const times = (window.__busyTimes = {});
    document.addEventListener(${JSON.stringify(event)}, () => { times.start ??= performance.now(); }, { capture: true });
    const observer = new MutationObserver(() => {
      const busy = times.start === undefined ? null : document.querySelector(${JSON.stringify(selector)});
      if (busy) {
        times.busy = performance.now();
        times.text = busy.textContent;
        observer.disconnect();
      }
    });
    observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributes: true });
  })()`);
}

/** What the busy element said when it appeared. */
async function busyText(page: Page): Promise<string> {
  return (await page.evaluate("window.__busyTimes.text")) as string;
}

/** Milliseconds from the event to the busy element, once it has appeared. */
async function elapsed(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    `window.__busyTimes.busy === undefined ? null : { ms: window.__busyTimes.busy - window.__busyTimes.start }`,
    null,
    { timeout: 10_000 },
  );
  return ((await handle.jsonValue()) as { ms: number }).ms;
}
