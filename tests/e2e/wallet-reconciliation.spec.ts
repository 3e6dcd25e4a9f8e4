import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { signInAs, withDb } from "./helpers";
import { axeViolations } from "./axe";

/**
 * Two kept days long before the run (the worker only ever writes yesterday's): the 13th
 * reconciled, the 14th 12.34 short, explained by an order placed outside the app.
 */
const COLUMNS = `"day","currency","status","openingMinor","capturedMinor","capturedCount","refundedMinor","refundedCount",
  "creditedMinor","creditedCount","withdrawnMinor","withdrawnCount","expectedClosingMinor","closingMinor","differenceMinor",
  "readAt","readAsOf","readTotalMinor","readAvailableMinor","readReservedMinor","readPendingMinor","afterDayMinor",
  "explanations","explanationNote","updatedAt"`;
const explanation = {
  kind: "unknown_order",
  id: "ord_e2eoutside",
  amountMinor: "-1234",
  at: "2026-01-14T09:30:00.000Z",
  note: "An order (fulfilled, reference outside-1) placed outside this app that it has not mirrored.",
};

test.beforeAll(async () => {
  await withDb((db) =>
    db.query(
      `INSERT INTO "WalletReconciliation" (${COLUMNS}) VALUES
       ('2026-01-13','USD','reconciled',100000,5000,2,0,0,20000,1,0,0,115000,115000,0,
        '2026-01-14T00:05:00Z','2026-01-13T22:00:00Z',115000,115000,0,0,0,'[]',NULL,now()),
       ('2026-01-14','USD','difference',115000,2500,1,0,0,0,0,0,0,112500,111266,-1234,
        '2026-01-15T00:05:00Z','2026-01-14T09:30:00Z',111266,111266,0,0,0,$1,NULL,now())
       ON CONFLICT ("day","currency") DO NOTHING`,
      [JSON.stringify([explanation])],
    ),
  );
});

test("finance opens the reconciliation from the wallet, reads a day's difference and its explanation, and downloads both CSVs", async ({
  page,
}) => {
  await signInAs(page, "finance");
  await page.goto("/wallet");
  // The notice the finance and admin home pages show too: the latest days that did not reconcile.
  const notice = page.getByTestId("reconciliation-notice");
  await expect(notice).toContainText("2026-01-14 USD: a difference of -$12.34");
  await expect(notice.getByRole("link", { name: "2026-01-14 USD" })).toHaveAttribute("href", "/wallet/reconciliation/2026-01-14");
  await page.getByRole("link", { name: "Daily reconciliation →" }).click();
  await expect(page.getByRole("heading", { name: "Wallet reconciliation", level: 1 })).toBeVisible();

  const table = page.getByTestId("reconciliation-table");
  const short = table.locator('tr[data-day="2026-01-14"][data-currency="USD"]');
  await expect(short.getByTestId("reconciliation-status")).toHaveText("Difference");
  await expect(short.getByTestId("reconciliation-difference")).toHaveText("-$12.34");
  await expect(table.locator('tr[data-day="2026-01-13"]').getByTestId("reconciliation-status")).toHaveText("Reconciled");
  expect(await axeViolations(page)).toEqual([]);

  const [list] = await Promise.all([page.waitForEvent("download"), page.getByTestId("reconciliation-export").click()]);
  expect(list.suggestedFilename()).toMatch(/^wallet-reconciliation-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await list.path())!, "utf8")).trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^day,currency,status,opening,captured,/);
  expect(lines).toContain(
    "2026-01-14,USD,difference,1150.00,25.00,1,0.00,0,0.00,0,0.00,0,1125.00,1112.66,-12.34,-12.34,2026-01-15T00:05:00.000Z,unknown_order ord_e2eoutside -12.34",
  );

  await page.getByRole("combobox", { name: "Status" }).selectOption("difference");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(table.locator('[data-state="reconciled"]')).toHaveCount(0);
  await short.getByTestId("reconciliation-day-link").click();

  await expect(page.getByRole("heading", { name: "Wallet reconciliation, 2026-01-14", level: 1 })).toBeVisible();
  const usd = page.locator('[data-testid="reconciliation-statement"][data-currency="USD"]');
  await expect(usd.getByTestId("reconciliation-day-difference")).toHaveText("-$12.34");
  const explanations = usd.getByTestId("reconciliation-explanations");
  await expect(explanations).toContainText("Order not in this app's records");
  await expect(explanations).toContainText("ord_e2eoutside");
  await expect(usd).not.toContainText("Not explained");
  expect(await axeViolations(page)).toEqual([]);

  const [day] = await Promise.all([page.waitForEvent("download"), page.getByTestId("reconciliation-day-export").click()]);
  const dayLines = (await readFile((await day.path())!, "utf8")).trimEnd().split("\r\n");
  expect(dayLines.slice(1).map((l) => l.slice(0, 14))).toEqual(["2026-01-14,USD"]);
});

test("a viewer is told an unknown day was not reconciled; a buyer is refused the list", async ({ page, browser }) => {
  await signInAs(page, "viewer");
  await page.goto("/wallet/reconciliation/2001-02-03");
  await expect(page.getByTestId("reconciliation-day-not-found")).toBeVisible();
  const buyer = await (await browser.newContext()).newPage();
  await signInAs(buyer, "buyer");
  expect((await buyer.request.get("/api/wallet/reconciliation")).status()).toBe(403);
  await buyer.context().close();
});
