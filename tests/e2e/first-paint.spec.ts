import { expect, test, type Page } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { signInAs, type ROLES } from "./helpers";
import { cheapVariant, findProduct } from "./sandbox";

/**
 * A page whose data is quick comes whole in its first bytes (issue 39, "pages that answer at
 * once"). React shows a part streamed after the first paint no sooner than 300 ms after it (it
 * batches reveals), so a page or a section streamed behind a skeleton while its data was
 * already there appeared 300 ms late on every load. For each page, as the person who uses it
 * sees it once its reads are warm (their second visit), the content's mark must come in the
 * HTML before any streamed part (`<div hidden id="S:…">`, which React moves into place later).
 * A busy machine can make a quick read miss the page's 50 ms wait now and then, so each page
 * gets three reads to come whole once; a page that always streams never does.
 *
 * A product's and an order's page wait for their read before anything is sent (so an unknown
 * id is a 404 every time): they come whole on every read, never behind a route skeleton.
 */
const PAGES: { role: (typeof ROLES)[number]; path: string; mark: string | RegExp; what: string }[] = [
  { role: "admin", path: "/", mark: 'data-testid="home-admin-budget"', what: "the admin's budget block" },
  { role: "finance", path: "/", mark: 'data-testid="home-finance-balances"', what: "finance's balances block" },
  { role: "buyer", path: "/", mark: 'data-testid="home-orders-today"', what: "the buyer's orders today" },
  { role: "finance", path: "/wallet", mark: 'data-testid="balance-cards"', what: "the balance cards" },
  // The pager closes the deposit history (its card's title is in the skeleton too).
  { role: "finance", path: "/wallet", mark: 'aria-label="Pages of deposits"', what: "the deposit history" },
  // The list's count line, or its empty state when no test has placed an order yet.
  { role: "viewer", path: "/orders", mark: /data-testid="orders-(total|empty)"/, what: "the orders list" },
  { role: "buyer", path: "/catalog", mark: 'data-testid="product-card"', what: "the product cards" },
  { role: "admin", path: "/settings", mark: 'data-testid="upstream-status"', what: "the upstream status" },
];

for (const { role, path, mark, what } of PAGES) {
  test(`${path} as ${role}: ${what} in the first bytes, not streamed after them`, async ({ page }) => {
    await signInAs(page, role);
    await expectWholeOnce(page, path, mark, what);
  });
}

test("a product's page as a buyer: the price and the order form in the first bytes", async ({ page }) => {
  const product = await findProduct((p) => p.isAvailable && p.variants.length > 0);
  await signInAs(page, "buyer");
  await expectWholeOnce(page, `/catalog/${product.id}`, 'data-testid="product-price"', "the price");
  await expectWholeOnce(page, `/catalog/${product.id}`, 'aria-label="Order this product"', "the order form");
});

test("an order's page as its buyer: the total and the lines in the first bytes", async ({ page }) => {
  const product = await findProduct(cheapVariant);
  await signInAs(page, "buyer");
  const item = { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency };
  const placed = await page.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: { idempotencyKey: `first-paint-${Date.now()}`, clientReference: `first-paint-${Date.now()}`, item },
  });
  expect(placed.status()).toBe(201);
  const { order } = (await placed.json()) as { order: { id: string } };
  await expectWholeOnce(page, `/orders/${order.id}`, 'data-testid="order-total"', "the total");
  await expectWholeOnce(page, `/orders/${order.id}`, 'data-testid="order-lines', "the lines");
});

/** `mark` is in the page, and before any streamed part in one of three reads of it. */
async function expectWholeOnce(page: Page, path: string, mark: string | RegExp, what: string) {
  const read = async () => {
    const res = await page.request.get(path);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const at = typeof mark === "string" ? html.indexOf(mark) : html.search(mark);
    const streamed = html.indexOf('<div hidden id="S:');
    return { found: at !== -1, before: at !== -1 && (streamed === -1 || at < streamed) };
  };
  expect((await read()).found, `${what} is on the page`).toBe(true);
  let whole = false;
  for (let attempt = 0; attempt < 3 && !whole; attempt++) whole = (await read()).before;
  expect(whole, `${what} before any streamed part, in one of three reads`).toBe(true);
}
