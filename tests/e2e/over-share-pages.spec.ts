import { expect, test, type Locator, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { addStaff, signIn, signInAs, withDb } from "./helpers";
import { E2E_ORIGIN } from "../../playwright.config";
import { cheapVariant, findProduct } from "./sandbox";
import { axeViolations } from "./axe";

/**
 * A person past their share of the upstream's minute (README, "The upstream's 120 calls a
 * minute"): each page that reads the upstream for them keeps its frame, says what it could not
 * do, counts down to the next minute and reads itself again then, without a reload.
 */
const PERSON = "over-share@demo.local";

/** An order id of the upstream's shape that nobody has (base32, as the sandbox's ids are). */
const unknownOrderId = () => `ord_${[...randomBytes(20)].map((b) => "abcdefghijklmnopqrstuvwxyz234567"[b & 31]).join("")}`;

/** Uses up the person's share and lookups of the current minute, as a flood of their reads would have. */
async function spendShare(email: string): Promise<void> {
  const now = Date.now();
  await withDb(async (db) => {
    const { id } = (await db.query(`SELECT id FROM "Staff" WHERE email = $1`, [email])).rows[0] as { id: string };
    await db.query(
      `INSERT INTO "UpstreamSpend" ("windowStart", spender, money, interactive, background, lookups)
       VALUES ($1::timestamptz AT TIME ZONE 'UTC', $2, 0, 100000, 0, 100000)
       ON CONFLICT ("windowStart", spender) DO UPDATE SET interactive = 100000, lookups = 100000`,
      [new Date(now - (now % 60_000)).toISOString(), `staff:${id}`],
    );
  });
}

async function secondsLeft(notice: Locator): Promise<number> {
  return Number(await notice.getByRole("timer").textContent());
}

/** The countdown is on screen and goes down while we watch. */
async function countsDown(notice: Locator): Promise<void> {
  await expect(notice).toContainText(/Trying again by itself in \d+ seconds?\./);
  const first = await secondsLeft(notice);
  expect(first).toBeGreaterThan(2);
  expect(first).toBeLessThanOrEqual(60);
  await expect.poll(() => secondsLeft(notice), { timeout: 5_000 }).toBeLessThan(first);
}

/** Every impact, at a desktop's width and at a phone's. */
async function axeAtBothSizes(page: Page): Promise<string[]> {
  const violations: string[] = [];
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const violation of await axeViolations(page)) violations.push(`${size.width}: ${violation}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  return violations;
}

test("past their share, the catalog, a product, an order id search and an unknown order keep their frame, count down and recover by themselves", async ({
  browser,
}) => {
  // Up to a minute of waiting for the next window, and the pages' recovery after it.
  test.setTimeout(180_000);
  await addStaff(PERSON, "Over Share", ["viewer"]);
  const product = await findProduct((p) => p.isAvailable && p.name.length > 6);
  const shown = await findProduct((p) => p.isAvailable && p.id !== product.id && p.type === "esim");
  const context = await browser.newContext();
  const [catalog, productPage, orders, order] = [
    await context.newPage(),
    await context.newPage(),
    await context.newPage(),
    await context.newPage(),
  ];
  await signIn(catalog, PERSON);
  await expect(catalog.getByTestId("current-staff")).toContainText(PERSON);
  // At least 40 s of the minute left, so each page can be checked before its countdown ends.
  if (Date.now() % 60_000 > 20_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 300));
  await spendShare(PERSON);

  // Each page opened at once: a catalog search not in the shared cache (100 a page) is an
  // upstream read; an order id the mirror lacks, searched or opened, is a lookup.
  const [searchedId, openedId] = [unknownOrderId(), unknownOrderId()];
  await Promise.all([
    catalog.goto(`/catalog?q=${encodeURIComponent(product.name)}&size=100`),
    productPage.goto(`/catalog/${shown.id}`),
    orders.goto(`/orders?q=${searchedId}`),
    order.goto(`/orders/${openedId}`),
  ]);

  // The catalog: its heading, navigation and search stay; the results say what could not be done.
  await expect(catalog.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();
  await expect(catalog.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(catalog.getByRole("search", { name: "Search the catalog" }).getByLabel("Search")).toHaveValue(product.name);
  const catalogNotice = catalog.getByTestId("catalog-retry-later");
  await expect(catalogNotice).toContainText("We could not search the catalog yet");
  await expect(catalogNotice).toContainText("You have used your share of this minute's calls to the Issuing Service");
  await expect(catalog.getByTestId("catalog-error")).toHaveCount(0);
  await countsDown(catalogNotice);

  // A product's page: the way back to the catalog, a heading and the same countdown.
  await expect(productPage.getByRole("heading", { level: 1, name: "Product", exact: true })).toBeVisible();
  await expect(productPage.getByRole("link", { name: "← Catalog" })).toBeVisible();
  const productNotice = productPage.getByTestId("product-retry-later");
  await expect(productNotice).toContainText("We could not load this product yet");
  await countsDown(productNotice);

  // The orders list, searched by that id: the id cannot be checked yet, and the page never
  // claims that no order matches.
  await expect(orders.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(orders.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(orders.getByLabel("Order id, client reference or product")).toHaveValue(searchedId);
  const ordersNotice = orders.getByTestId("orders-rate-limited");
  await expect(ordersNotice).toContainText("We could not check this id yet");
  await expect(orders.getByTestId("orders-empty")).toHaveCount(0);
  await expect(orders.getByText("No orders match these filters.")).toHaveCount(0);
  await countsDown(ordersNotice);

  // The order's own page: its heading, the id, its way back and the same countdown.
  await expect(order.getByRole("heading", { level: 1, name: "Order", exact: true })).toBeVisible();
  await expect(order.getByText(openedId)).toBeVisible();
  await expect(order.getByRole("link", { name: "← All orders" })).toBeVisible();
  await expect(order.getByRole("navigation", { name: "Main" })).toBeVisible();
  const orderNotice = order.getByTestId("order-rate-limited");
  await expect(orderNotice).toContainText("We could not look up this order yet");
  await countsDown(orderNotice);
  // The only announcement is the sentence; the seconds tick in a timer, which is not read out each second.
  await expect(orderNotice.getByRole("status")).not.toContainText(/\d+ seconds?/);

  for (const page of [catalog, productPage, orders, order]) expect(await axeAtBothSizes(page)).toEqual([]);
  // Still counting down, so axe saw the refused pages rather than the recovered ones.
  for (const notice of [catalogNotice, productNotice, ordersNotice, orderNotice])
    await expect(notice.getByRole("timer")).toBeVisible();

  // The next minute: each page asks again by itself and shows what it could not show before.
  const nextMinute = { timeout: 75_000 };
  await expect(catalog.getByRole("list", { name: "Products" }).getByText(product.name).first()).toBeVisible(nextMinute);
  await expect(catalogNotice).toHaveCount(0);
  await expect(productPage.getByRole("heading", { level: 1, name: shown.name })).toBeVisible(nextMinute);
  await expect(orders.getByTestId("orders-no-such-id")).toContainText(searchedId, nextMinute);
  await expect(ordersNotice).toHaveCount(0);
  await expect(order.getByTestId("order-not-found")).toContainText("no such order in this workspace", nextMinute);
  await expect(order.getByRole("heading", { level: 1, name: "Order not found" })).toBeVisible();
  await context.close();
});

test("part of an order id finds the mirrored orders whose id begins with it, and says so in terms of ids when none does", async ({
  page,
}) => {
  const product = await findProduct(cheapVariant);
  await signInAs(page, "buyer");
  const item = { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency };
  const placed = await page.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: { idempotencyKey: `part-id-${Date.now()}`, clientReference: `part-id-${Date.now()}`, item },
  });
  expect(placed.status()).toBe(201);
  const { id } = ((await placed.json()) as { order: { id: string } }).order;
  const search = page.getByLabel("Order id, client reference or product");

  // Its beginning, shorter than an id or as long as one: the mirrored orders whose id begins with it.
  for (const part of [id.slice(0, 7), id.slice(0, 14)]) {
    await page.goto(`/orders?q=${encodeURIComponent(part)}`);
    await expect(search).toHaveValue(part);
    await expect(page.locator(`tr[data-order-id="${id}"]`)).toBeVisible();
    for (const row of await page.getByTestId("orders-table").locator("tbody tr").all())
      expect(await row.getAttribute("data-order-id")).toMatch(new RegExp(`^${part}`));
  }
  // As long as an id, it was asked of the Issuing Service as one too, which knows no such id.
  await expect(page.getByTestId("orders-no-such-id")).toContainText("Below: the orders whose id begins with it");

  // The beginning of an id that no order has: said about ids, not client references.
  await page.goto("/orders?q=ord_0Q1");
  const empty = page.getByTestId("orders-empty");
  await expect(empty).toContainText("No order id here begins with ord_0Q1");
  await expect(empty).toContainText("paste the whole id");
  await expect(empty).not.toContainText("client reference");
});
