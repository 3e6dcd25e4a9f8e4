import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { expect, test } from "@playwright/test";
import { DESKTOP, shots, signInAs, withDb } from "./helpers";

/**
 * A month long before the run (March 2025), so its figures are this spec's alone: seven orders
 * in two currencies, from the buyer (back-office and a bulk file), the storefront and another
 * person, one failed, one refunded, one still reserved; and what the catalog said of their products.
 */
const MONTH = "period=custom&from=2025-03-01&to=2025-03-31";
const PRODUCTS = [
  ["prod_e2e_report_fr", "Report Books Gift Card – France", "gift-card", "FR", "Books"],
  ["prod_e2e_report_us", "Report Arcade Gift Card – United States", "gift-card", "US", "Gaming"],
  ["prod_e2e_report_de", "Report eSIM Germany", "esim", "DE", "Mobile Data"],
] as const;
type Seed = [
  id: string,
  who: "buyer" | "finance" | null,
  key: string | null,
  cur: string,
  status: string,
  minor: number,
  product: number,
  day: number,
];
const ORDERS: Seed[] = [
  ["ord_e2e_report_1", "buyer", "client:e2e-report-1", "USD", "fulfilled", 1250, 0, 3],
  ["ord_e2e_report_2", "buyer", "client:e2e-report-2", "USD", "failed", 700, 0, 4],
  ["ord_e2e_report_3", "buyer", "bulk-e2e-report-1", "USD", "fulfilled", 2000, 1, 5],
  ["ord_e2e_report_4", null, null, "USD", "fulfilled", 4000, 1, 10],
  ["ord_e2e_report_5", null, null, "USD", "refunded", 1500, 0, 12],
  ["ord_e2e_report_6", "finance", "client:e2e-report-6", "EUR", "fulfilled", 999, 2, 20],
  ["ord_e2e_report_7", "buyer", "client:e2e-report-7", "EUR", "reserved", 501, 2, 25],
];

test.beforeAll(async () => {
  await withDb(async (db) => {
    for (const [id, name, type, country, category] of PRODUCTS)
      await db.query(
        `INSERT INTO "CatalogProductState" ("productId", "name", "productType", "countryCode", "category", "currency",
                                            "isAvailable", "prices", "reference", "observedAt")
         VALUES ($1, $2, $3, $4, $5, 'USD', true, '{}', '{}', now())
         ON CONFLICT ("productId") DO NOTHING`,
        [id, name, type, country, category],
      );
    for (const [id, who, key, currency, status, minor, product, day] of ORDERS) {
      const at = `2025-03-${String(day).padStart(2, "0")}T10:00:00Z`;
      const [productId, productName] = PRODUCTS[product]!;
      await db.query(
        `INSERT INTO "Order" ("id", "clientReference", "status", "totalMinor", "currency", "lines", "upstreamCreatedAt",
           "upstreamUpdatedAt", "placedById", "idempotencyKey", "createdAt", "updatedAt")
         SELECT $1, $1, $2, $3, $4, $5, $6::timestamp, $6::timestamp + interval '5 minutes',
           (SELECT "id" FROM "Staff" WHERE "email" = $7), $8, $6::timestamp, now()
         ON CONFLICT ("id") DO NOTHING`,
        [
          id,
          status,
          minor,
          currency,
          JSON.stringify([{ productId, productName, quantity: 1 }]),
          at,
          who && `${who}@demo.local`,
          key,
        ],
      );
    }
  });
});

test("finance opens the report, changes the period and the breakdown, and downloads the same figures as CSV", async ({
  page,
}) => {
  await signInAs(page, "finance");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { name: "Spend report", level: 1 })).toBeVisible();

  const form = page.getByRole("form", { name: "Choose the report" });
  await form.getByLabel("Period").selectOption("custom");
  await form.getByLabel("From (UTC)").fill("2025-03-01");
  await form.getByLabel("To (UTC, inclusive)").fill("2025-03-31");
  await form.getByLabel("One bar per").selectOption("week");
  await form.getByLabel("Broken down by").selectOption("country");
  await form.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/period=custom&from=2025-03-01&to=2025-03-31&grain=week&by=country/);

  // USD: fulfilled 12.50 + 20.00 + 40.00; 7.00 failed and 15.00 refunded apart; each came back within March.
  const usd = page.getByTestId("report-USD");
  await expect(usd.getByTestId("report-USD-net-spend")).toHaveText("$72.50");
  await expect(usd.getByTestId("report-USD-failed")).toHaveText("$7.00");
  await expect(usd.getByTestId("report-USD-refunded")).toHaveText("$15.00");
  await expect(usd.getByTestId("report-USD-tie")).toHaveText(
    "Ties to the wallet's movements: $72.50 left the wallet for orders from 2025-03-01 to 2025-03-31.",
  );
  const countries = usd.getByTestId("report-USD-groups");
  await expect(countries.locator("tbody tr").first()).toContainText("United States (US)");
  await expect(countries.locator('tr[data-group="US"]')).toContainText("$60.00");
  await expect(countries.locator('tr[data-group="FR"]')).toContainText("$12.50");
  await expect(page.getByTestId("report-EUR-net-spend")).toHaveText("€15.00");
  await expect(page.getByTestId("report-EUR-in-progress")).toHaveText("€5.01");
  await expect(page.getByTestId("report-chart-USD")).toBeVisible();
  await page.setViewportSize(DESKTOP);
  await shots(page, "reports-finance");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("report-export").click()]);
  expect(download.suggestedFilename()).toMatch(/^spend-report-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = parse(await readFile((await download.path())!, "utf8"), { columns: true }) as Record<string, string>[];
  const totals = rows.filter((r) => r.row === "total").map((r) => [r.currency, r.orders, r.netSpend, r.failed, r.refunded]);
  expect(totals).toEqual([
    ["EUR", "2", "15.00", "0.00", "0.00"],
    ["USD", "5", "72.50", "7.00", "15.00"],
  ]);
  const usWeeks = rows.filter((r) => r.row === "group" && r.groupId === "US");
  expect(usWeeks.map((r) => [r.periodStart, r.periodEnd, r.group, r.netSpend])).toEqual([
    ["2025-03-03", "2025-03-09", "United States (US)", "20.00"],
    ["2025-03-10", "2025-03-16", "United States (US)", "40.00"],
  ]);
});

test("a buyer sees only their own spend, on the page and in the CSV; support may not open the report", async ({
  page,
  browser,
}) => {
  await signInAs(page, "buyer");
  await page.goto(`/reports?${MONTH}&by=origin`);
  await expect(page.getByText("Your own orders", { exact: false })).toBeVisible();
  await expect(page.getByTestId("report-USD-net-spend")).toHaveText("$32.50");
  await expect(page.getByTestId("report-USD-failed")).toHaveText("$7.00");
  await expect(page.getByTestId("report-USD-refunded")).toHaveText("$0.00");
  await expect(page.getByTestId("report-EUR-net-spend")).toHaveText("€5.01");
  await expect(page.getByTestId("report-USD-tie")).toHaveCount(0);
  await expect(page.getByTestId("report-USD-groups").locator("tbody tr")).toHaveText([/^Bulk file/, /^Back-office/]);

  const csv = await page.request.get(`/api/reports/spend/export?${MONTH}&by=buyer`);
  expect(csv.status()).toBe(200);
  const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
  expect(rows.filter((r) => r.row === "total").map((r) => [r.currency, r.orders, r.netSpend])).toEqual([
    ["EUR", "1", "5.01"],
    ["USD", "3", "32.50"],
  ]);
  expect(new Set(rows.filter((r) => r.row === "group").map((r) => r.group))).toEqual(new Set(["Demo Buyer"]));
  await page.setViewportSize(DESKTOP);
  await shots(page, "reports-buyer");

  const support = await (await browser.newContext()).newPage();
  await signInAs(support, "support");
  await support.goto("/reports");
  await expect(support.getByTestId("forbidden")).toBeVisible();
  expect((await support.request.get(`/api/reports/spend/export?${MONTH}`)).status()).toBe(403);
  await support.context().close();
});
