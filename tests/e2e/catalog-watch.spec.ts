import { expect, test } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { addStaff, askForApproval, bellCount, shots, signedInPage, withDb } from "./helpers";
import { sandboxApi, sandboxControl, type SandboxProduct } from "./sandbox";

// Issue 56, "Done when": a buyer watches a product from the catalog; its price rises through the
// sandbox's control plane; the bell and the mail catcher say so; the product page's history shows
// both prices, and the buyer's waiting spend request says its price rose. The buyer is this
// spec's own; the product's price is put back after it.
const BUYER = "watch-buyer@demo.local";
let product: SandboxProduct;

const usd = (amount: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount);

test.beforeAll(async () => {
  await addStaff(BUYER, "Wren Watcher", ["buyer"]);
  // A USD gift card bought by variant that other specs do not pick (they take the first match).
  const { items } = await sandboxApi<{ items: SandboxProduct[] }>("/products?category=gift-card&limit=100");
  const fitting = items.filter((p) => p.isAvailable && p.variants.length > 0 && p.currency === "USD");
  product = fitting.at(-1)!;
  await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1 });
});

test.afterAll(async ({ browser }) => {
  await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1 });
  await withDb((db) =>
    db.query(`DELETE FROM "CatalogWatch" WHERE "staffId" = (SELECT id FROM "Staff" WHERE email = $1)`, [BUYER]),
  );
  const admin = await signedInPage(browser, "admin");
  const buyerId = await staffId(BUYER);
  await admin.request.put("/api/spend-limits", {
    headers: { origin: E2E_ORIGIN },
    data: { scope: buyerId, currency: "USD", perOrder: "", perDay: "", perMonth: "" },
  });
  await admin.context().close();
});

async function staffId(email: string): Promise<string> {
  return withDb(async (db) => (await db.query<{ id: string }>(`SELECT id FROM "Staff" WHERE email = $1`, [email])).rows[0]!.id);
}

test("a buyer watches a product from the catalog; its price rises; the bell, the email, the price history and the waiting spend request say so", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // A per-order limit below the price: the buyer's order waits for approval, priced before the rise.
  const admin = await signedInPage(browser, "admin");
  const limit = await admin.request.put("/api/spend-limits", {
    headers: { origin: E2E_ORIGIN },
    data: { scope: await staffId(BUYER), currency: "USD", perOrder: "1.00", perDay: "", perMonth: "" },
  });
  expect(limit.ok(), await limit.text()).toBe(true);
  await admin.context().close();

  const page = await signedInPage(browser, BUYER);
  await page.goto(`/catalog?q=${encodeURIComponent(product.name)}`);
  await page.getByRole("button", { name: `Watch ${product.name}`, exact: true }).click();
  const watching = page.getByRole("button", { name: `Watching ${product.name}`, exact: true });
  await expect(watching).toBeVisible();
  await shots(page, "catalog-watch-catalog");
  // The watch is kept: the next visit shows it.
  await page.reload();
  await expect(page.getByRole("button", { name: `Watching ${product.name}`, exact: true })).toBeVisible();
  const requestId = await askForApproval(page, product, {
    reference: `watch-${Date.now()}`,
    reason: "Team rewards",
    quantity: 1,
  });
  const before = await bellCount(page);
  // The watch's first pass has read the price it rises from.
  await expect
    .poll(() =>
      withDb(async (db) => (await db.query(`SELECT 1 FROM "CatalogProductState" WHERE "productId" = $1`, [product.id])).rowCount),
    )
    .toBe(1);

  await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1.05 });
  const dearest = product.variants.reduce((a, b) => (b.price > a.price ? b : a));
  const risen = (await sandboxApi<SandboxProduct>(`/products/${product.id}`)).variants.find((v) => v.id === dearest.id)!.price;

  // The bell: one more unread, saying what rose, from what to what.
  await expect
    .poll(
      async () => {
        await page.reload();
        return bellCount(page);
      },
      { timeout: 60_000, intervals: [1_000, 2_000] },
    )
    .toBe(before + 1);
  await page.getByTestId("bell").click();
  await expect(page).toHaveURL(/\/notifications$/);
  const told = page.getByTestId("inbox-item").filter({ hasText: `${product.name} (${dearest.displayValue}): price rose` });
  await expect(told).toHaveCount(1);
  await expect(told).toContainText(`${usd(dearest.price)} → ${usd(risen)}`);

  // The email, at the local catcher.
  await expect
    .poll(
      () =>
        withDb(
          async (db) =>
            (
              await db.query(`SELECT 1 FROM "CaughtMail" WHERE $1 = ANY("to") AND strpos("subject", $2) > 0`, [
                BUYER,
                `${product.name} (${dearest.displayValue}): price rose`,
              ])
            ).rowCount,
        ),
      { timeout: 120_000, intervals: [1_000] },
    )
    .toBe(1);

  // The product page: both prices in its history.
  await page.goto(`/catalog/${encodeURIComponent(product.id)}`);
  const points = page.getByTestId("price-history-points");
  await expect(points).toContainText(usd(dearest.price));
  await expect(points).toContainText(usd(risen));
  await expect(page.getByTestId("price-history").locator("svg")).toBeVisible();
  await shots(page, "catalog-watch-product");

  // The waiting spend request says its price rose since the buyer asked.
  await page.goto("/spend-approvals");
  await expect(page.getByTestId(`spend-request-${requestId}`).getByTestId("price-moved")).toHaveText(
    /^The price of 1 line rose [\d.]+ % since you asked\.$/,
  );
  await page.goto("/catalog/watches");
  await expect(page.getByTestId("watch-list")).toContainText(product.name);
  await shots(page, "catalog-watches");
});
