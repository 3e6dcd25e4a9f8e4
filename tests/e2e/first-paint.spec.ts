import { expect, test } from "@playwright/test";
import { signInAs, type ROLES } from "./helpers";

/**
 * A page whose data is quick comes whole in its first bytes (issue 39, "pages that answer at
 * once"). React shows a part streamed after the first paint no sooner than 300 ms after it (it
 * batches reveals), so a page or a section streamed behind a skeleton while its data was
 * already there appeared 300 ms late on every load. For each page, as the person who uses it
 * sees it once its reads are warm (their second visit), the content's mark must come in the
 * HTML before any streamed part (`<div hidden id="S:…">`, which React moves into place later).
 * A busy machine can make a quick read miss the page's 50 ms wait now and then, so each page
 * gets three reads to come whole once; a page that always streams never does.
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
  });
}
