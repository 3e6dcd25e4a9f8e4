import { expect, test, type Page } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { signInAs } from "./helpers";
import { findProduct, sandboxControl } from "./sandbox";

/** The chart's daily closing balances, newest first: [day, amount] pairs from its table. */
async function dailyCloses(page: Page): Promise<string[][]> {
  await page.goto("/wallet?chart=USD");
  const table = page.getByTestId("balance-chart-table");
  await page.getByTestId("balance-chart-USD").getByText("Show as a table").click();
  await expect(table).toBeVisible();
  return table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")));
}

test("the wallet chart's past days stay fixed across a new order, a deposit and a payout, even with the upstream's clock a day ahead", async ({ browser }) => {
  test.setTimeout(120_000);
  const finance = await (await browser.newContext()).newPage();
  await signInAs(finance, "finance");
  const before = await dailyCloses(finance);
  expect(before.length).toBeGreaterThan(20);
  const pastBefore = before.slice(1);

  // The Issuing Service's clock runs a day ahead of this app's from here on.
  await sandboxControl("POST", "/clock/advance", { seconds: 86_400 });

  const buyer = await (await browser.newContext()).newPage();
  await signInAs(buyer, "buyer");
  const product = await findProduct((p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD");
  const order = await buyer.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: { idempotencyKey: crypto.randomUUID(), clientReference: `e2e-chart-${Date.now()}`, item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: "USD" } },
  });
  expect(order.ok()).toBe(true);
  expect((await dailyCloses(finance)).slice(1)).toEqual(pastBefore);

  await sandboxControl("POST", "/deposits", { amount: 123.45, currency: "USD" });
  expect((await dailyCloses(finance)).slice(1)).toEqual(pastBefore);

  // A payout: requested by finance, approved by an approver, sent to the Issuing Service.
  const quote = await finance.request.post("/api/withdrawals", { headers: { origin: E2E_ORIGIN }, data: { amount: "31.07", currency: "USD", reason: "Chart stability check" } });
  expect(quote.ok(), await quote.text()).toBe(true);
  const id = ((await quote.json()) as { id: string }).id;
  const approver = await (await browser.newContext()).newPage();
  await signInAs(approver, "approver");
  const approved = await approver.request.post(`/api/withdrawals/${id}/approval`, { headers: { origin: E2E_ORIGIN }, data: {} });
  expect(approved.ok(), await approved.text()).toBe(true);
  const after = await dailyCloses(finance);
  expect(after.slice(1)).toEqual(pastBefore);
  // Today's close moved with them; the axis does not draw a cliff from a cut-off baseline.
  expect(after[0]).not.toEqual(before[0]);
  await expect(finance.getByTestId("chart-axis-break")).toHaveCount(0);
});
