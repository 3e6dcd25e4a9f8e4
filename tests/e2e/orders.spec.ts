import { E2E_ORIGIN } from "../../playwright.config";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { signInAs, withDb } from "./helpers";
import { axeViolations } from "./axe";

const ORIGIN = E2E_ORIGIN;

type MirrorRow = {
  ref: string;
  status: string;
  placedByEmail?: string;
  secondsAgo?: number;
  productName?: string;
  totalMinor?: number;
};

/**
 * Arranges mirror rows directly in the app's database (what webhooks would have written),
 * so list, filter, export and live-status behaviour is tested without depending on the
 * ordering UI. nextCheckAt stays NULL: reconciliation never re-reads these invented ids.
 */
async function insertMirrorOrders(rows: MirrorRow[]): Promise<string[]> {
  return withDb(async (client) => {
    const ids: string[] = [];
    for (const row of rows) {
      const id = `ord_e2e_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
      const lines = [
        {
          productId: "prd_e2e_card",
          variantId: "var_e2e_25",
          productName: row.productName ?? "E2E Gift Card",
          variantLabel: "$25",
          quantity: 2,
          unitPrice: 25,
          currency: "USD",
          faceValue: null,
          faceCurrency: null,
        },
      ];
      await client.query(
        `INSERT INTO "Order" ("id", "clientReference", "status", "totalMinor", "currency", "lines", "upstreamCreatedAt", "upstreamUpdatedAt", "placedById", "updatedAt")
         VALUES ($1, $2, $3, $4, 'USD', $5::jsonb,
                 (now() AT TIME ZONE 'utc') - make_interval(secs => $6), (now() AT TIME ZONE 'utc') - make_interval(secs => $6),
                 (SELECT "id" FROM "Staff" WHERE "email" = $7), now())`,
        [id, row.ref, row.status, row.totalMinor ?? 5000, JSON.stringify(lines), row.secondsAgo ?? 0, row.placedByEmail ?? null],
      );
      ids.push(id);
    }
    return ids;
  });
}

test("the orders list filters by status and client reference, and exports exactly the filtered rows", async ({ page }) => {
  const prefix = `e2e-list-${randomUUID().slice(0, 8)}`;
  await insertMirrorOrders([
    { ref: `${prefix}-ok-1`, status: "fulfilled", placedByEmail: "buyer@demo.local", secondsAgo: 30 },
    { ref: `${prefix}-failed`, status: "failed", placedByEmail: "buyer@demo.local", secondsAgo: 20 },
    { ref: `${prefix}-ok-2`, status: "fulfilled", secondsAgo: 10 },
  ]);
  await signInAs(page, "buyer");
  await page.goto("/orders");
  await expect(page.getByTestId("place-order-link")).toBeVisible();

  await page.getByLabel("Order id, client reference or product").fill(prefix.toUpperCase());
  await page.getByRole("group", { name: "Status" }).getByLabel("Fulfilled").check();
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=fulfilled/);
  const rows = page.getByTestId("orders-table").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(`${prefix}-ok-2`);
  await expect(rows.nth(1)).toContainText(`${prefix}-ok-1`);
  await expect(rows.nth(1)).toContainText("Demo Buyer");
  await expect(rows.nth(1)).toContainText("$50.00");
  expect(await axeViolations(page)).toEqual([]);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("orders-export").click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path())!, "utf8")).trimEnd().split("\r\n");
  expect(csv[0]).toBe(
    "orderId,createdAtUtc,updatedAtUtc,clientReference,status,total,currency,items,origin,placedBy,placedByEmail",
  );
  expect(csv.slice(1).map((line) => line.split(",")[3])).toEqual([`${prefix}-ok-2`, `${prefix}-ok-1`]);
  expect(csv[2]).toContain(",fulfilled,50.00,USD,2 × E2E Gift Card ($25),placed here,Demo Buyer,buyer@demo.local");

  // Only mine: the toggle of people who cannot read the staff list.
  await page.getByLabel("Only orders I placed").check();
  await page.getByRole("group", { name: "Status" }).getByLabel("Fulfilled").uncheck();
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("orders-table")).not.toContainText(`${prefix}-ok-2`);

  // Nothing matches: the empty state offers to clear the filters.
  await page.goto(`/orders?reference=${prefix}-nothing`);
  await expect(page.getByTestId("orders-empty")).toContainText("No orders match these filters.");
  await page.getByTestId("orders-empty").getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/orders$/);
});

test("bad filters never break the page, and the API answers them with a 400 problem", async ({ page }) => {
  await signInAs(page, "buyer");
  const response = await page.goto("/orders?from=2024-99-99&status=shipped&cursor=nope&reference=x");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("orders-filter-ignored")).toContainText("status, from date, page position");
  // An older link's client-reference filter is kept and said, beside the one search box.
  await expect(page.getByTestId("orders-kept-reference")).toContainText("client reference containing “x”");

  const api = await page.request.get("/api/orders?status=shipped&from=yesterday");
  expect(api.status()).toBe(400);
  expect(api.headers()["content-type"]).toContain("application/problem+json");
  const problem = await api.json();
  expect(problem).toMatchObject({ code: "invalid_request", errors: { status: expect.any(Array), from: expect.any(Array) } });
  expect(problem.correlationId).toEqual(expect.any(String));
  expect((await page.request.get("/api/orders/export?to=2024-02-30")).status()).toBe(400);
  expect((await page.request.get("/api/orders?limit=5000")).status()).toBe(400);
});

test("support finds an order from the one search box by its id, its client reference or a product", async ({ page }) => {
  const stamp = randomUUID().slice(0, 8);
  const [cardId, otherId] = await insertMirrorOrders([
    { ref: `e2e-search-${stamp}-a`, status: "fulfilled", productName: `Lunar Card ${stamp}`, secondsAgo: 20 },
    { ref: `e2e-search-${stamp}-b`, status: "processing", secondsAgo: 10 },
  ]);
  await signInAs(page, "support");
  await page.goto("/orders");
  const search = page.getByLabel("Order id, client reference or product");

  // A pasted order id (with the spaces a copy brings) goes to the order.
  await search.fill(`  ${otherId}  `);
  await search.press("Enter");
  await expect(page).toHaveURL(`${ORIGIN}/orders/${otherId}`);
  await expect(page.getByTestId("order-client-reference")).toHaveText(`e2e-search-${stamp}-b`);

  // Part of a client reference lists the orders whose reference holds it.
  await page.goto("/orders");
  await search.fill(`SEARCH-${stamp}`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/orders\?q=/);
  const rows = page.getByTestId("orders-table").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(search).toHaveValue(`SEARCH-${stamp}`);

  // Part of a product's name narrows to the orders with that product.
  await search.fill(`lunar card ${stamp}`);
  await search.press("Enter");
  await expect(rows).toHaveCount(1);
  await expect(page.locator(`tr[data-order-id="${cardId}"]`)).toBeVisible();

  // An id nobody knows: said plainly, on the list page, never an error page.
  const missing = await page.goto(`/orders?q=ord_nosuch${stamp}`);
  expect(missing?.status()).toBe(200);
  await expect(page.getByTestId("orders-no-such-id")).toContainText("No order with this id");
  await expect(page.getByTestId("orders-no-such-id")).toContainText(`ord_nosuch${stamp}`);
  await expect(page.getByTestId("orders-empty")).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Bad search input: the page ignores it and says so; the API answers 400.
  expect((await page.goto(`/orders?q=${"x".repeat(201)}`))?.status()).toBe(200);
  await expect(page.getByTestId("orders-filter-ignored")).toContainText("search");
  const api = await page.request.get(`/api/orders?q=${"x".repeat(201)}`);
  expect(api.status()).toBe(400);
  expect((await api.json()).errors).toHaveProperty("q");
  expect((await page.request.get("/api/orders?q=a%00b")).status()).toBe(400);
  const found = await page.request.get(`/api/orders?q=${cardId}`);
  expect(((await found.json()) as { rows: { id: string }[] }).rows.map((r) => r.id)).toEqual([cardId]);
});

test("a viewer sees the orders list but no way to place an order", async ({ page }) => {
  const [id] = await insertMirrorOrders([
    { ref: `e2e-viewer-${randomUUID().slice(0, 8)}`, status: "fulfilled", placedByEmail: "buyer@demo.local" },
  ]);
  await signInAs(page, "viewer");
  await page.goto("/orders");
  await expect(page.getByTestId("orders-table")).toBeVisible();
  await expect(page.locator(`tr[data-order-id="${id}"]`)).toBeVisible();
  await expect(page.getByTestId("place-order-link")).toHaveCount(0);
  await expect(page.getByRole("link", { name: /place an order/i })).toHaveCount(0);
  await expect(page.getByLabel("Only orders I placed")).toBeVisible();
  const forged = await page.request.post("/api/orders", {
    headers: { origin: ORIGIN },
    data: {
      idempotencyKey: randomUUID(),
      clientReference: "forged",
      item: { productId: "prd_x", variantId: "v", quantity: 1, currency: "USD" },
    },
  });
  expect(forged.status()).toBe(403);
});

test("the order page follows the status live and stops asking once the order is final", async ({ page }) => {
  const ref = `e2e-live-${randomUUID().slice(0, 8)}`;
  const [id] = await insertMirrorOrders([{ ref, status: "processing", placedByEmail: "buyer@demo.local" }]);
  await signInAs(page, "support");
  await page.goto(`/orders/${id}`);
  const status = page.getByTestId("order-status");
  await expect(status).toHaveAttribute("data-status", "processing");
  await expect(page.getByRole("list", { name: "Order progress" }).locator('[aria-current="step"]')).toContainText("Processing");
  await expect(page.getByTestId("order-placed-by")).toContainText("Demo Buyer");
  await expect(page.getByTestId("order-lines")).toContainText("$50.00");
  expect(await axeViolations(page)).toEqual([]);

  // What a webhook would do to the mirror: the page shows it without a reload.
  await withDb((c) =>
    c.query(
      `UPDATE "Order" SET "status" = 'fulfilled', "upstreamUpdatedAt" = now() AT TIME ZONE 'utc', "updatedAt" = now() WHERE "id" = $1`,
      [id],
    ),
  );
  await expect(status).toHaveAttribute("data-status", "fulfilled", { timeout: 10_000 });
  await expect(status).toHaveText("Fulfilled");

  let polls = 0;
  page.on("request", (req) => {
    if (req.url().endsWith(`/api/orders/${id}`)) polls += 1;
  });
  await page.waitForTimeout(4_000);
  expect(polls).toBe(0);
});

test("an unknown order id shows the not-found page, kept out of indexes; the API answers 404", async ({ page }) => {
  await signInAs(page, "viewer");
  // The order page waits for its read before anything is sent, so the status is known: a 404,
  // every time, with the not-found page marked `noindex`. The API says 404 too.
  const answer = await page.goto("/orders/ord_doesnotexist000000000");
  expect(answer?.status()).toBe(404);
  await expect(page.getByTestId("order-not-found")).toBeVisible();
  await expect(page.locator('meta[name="robots"][content="noindex"]').first()).toBeAttached();
  expect((await page.request.get("/api/orders/ord_doesnotexist000000000")).status()).toBe(404);
});

/** Finds an available product bought by variant, from the app's own catalog API (any list shape). */
async function variantProductFromCatalog(
  request: APIRequestContext,
): Promise<{ productId: string; variantId: string; currency: string } | string> {
  const res = await request.get("/api/catalog/products");
  if (!res.ok()) return `GET /api/catalog/products answered ${res.status()}`;
  const body = (await res.json()) as unknown;
  const list = (
    Array.isArray(body) ? body : ((body as Record<string, unknown>).items ?? (body as Record<string, unknown>).products ?? [])
  ) as Record<string, unknown>[];
  for (const p of list) {
    const variants = p.variants as { id: string; price: number }[] | undefined;
    if (p.isAvailable !== false && variants?.length && variants[0]!.price < 60)
      return { productId: String(p.id), variantId: variants[0]!.id, currency: String(p.currency) };
  }
  return "the catalog API listed no available variant product";
}

test("a buyer's order placed through the app reaches fulfilled live on its page and shows in the list", async ({ page }) => {
  await signInAs(page, "buyer");
  const product = await variantProductFromCatalog(page.request);
  if (typeof product === "string") throw new Error(product);
  const clientReference = `e2e-live-real-${randomUUID().slice(0, 8)}`;
  const placed = await page.request.post("/api/orders", {
    headers: { origin: ORIGIN },
    data: {
      idempotencyKey: randomUUID(),
      clientReference,
      item: { productId: product.productId, variantId: product.variantId, quantity: 1, currency: product.currency },
    },
  });
  expect(placed.status(), await placed.text()).toBeLessThan(300);
  const body = (await placed.json()) as { order?: { id: string }; id?: string };
  const id = body.order?.id ?? body.id;
  expect(id).toBeTruthy();

  await page.goto(`/orders/${id}`);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "fulfilled", { timeout: 20_000 });
  await expect(page.getByTestId("order-client-reference")).toHaveText(clientReference);
  await expect(page.getByTestId("order-placed-by")).toContainText("buyer@demo.local");

  await page.goto(`/orders?reference=${clientReference}&status=fulfilled`);
  await expect(page.getByTestId("orders-table").locator("tbody tr")).toHaveCount(1);
});
