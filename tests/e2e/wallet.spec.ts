import { E2E_ORIGIN } from "../../playwright.config";
import { expect, test, type Page } from "@playwright/test";
import { namePayoutDetails, signInAs, withDb } from "./helpers";
import { findProduct, sandboxControl } from "./sandbox";

const ORIGIN = E2E_ORIGIN;
const WARNING = "Only BSC-USD on BNB Smart Chain is accepted. Funds sent on another network or in another token are lost.";

// In file order: the address does not exist until finance requests it (a simulated
// deposit would create it), so the viewer and request tests come first.
test.describe.configure({ mode: "serial" });

async function availableUsd(page: Page): Promise<bigint> {
  return BigInt((await page.getByTestId("balance-USD").getAttribute("data-available-minor")) ?? "NaN");
}

test("a viewer reads the wallet but sees no request button, and a forged request is refused with 403", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Wallet" }).click();
  await expect(page.getByRole("heading", { name: "Wallet", level: 1 })).toBeVisible();
  await expect(page.getByTestId("balance-USD")).toBeVisible();
  await expect(page.getByTestId("deposit-address-missing")).toContainText("Finance staff can request it.");
  await expect(page.getByTestId("request-deposit-address")).toHaveCount(0);
  const forged = await page.request.put("/api/wallet/deposit-address", { headers: { origin: ORIGIN } });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toMatchObject({ code: "forbidden" });
  const stillNone = await page.request.get("/api/wallet/deposit-address");
  expect(await stillNone.json()).toEqual({ address: null });
});

test("finance requests the deposit address and sees it with a QR code, a copy button and the network warning", async ({
  page,
}) => {
  await signInAs(page, "finance");
  await page.goto("/wallet");
  await page.getByTestId("request-deposit-address").click();
  const address = page.getByTestId("deposit-address-value");
  await expect(address).toHaveText(/^0x[0-9a-f]{40}$/);
  await expect(page.getByTestId("deposit-address-qr")).toBeVisible();
  await expect(page.getByTestId("deposit-address-warning")).toHaveText(WARNING);
  await expect(page.getByRole("button", { name: "Copy address" })).toBeVisible();

  const value = await address.textContent();
  const audited = await withDb((db) =>
    db.query(
      `SELECT "targetId", "correlationId" FROM "AuditEvent" WHERE action = 'wallet.deposit_address_request' AND "actorEmail" = 'finance@demo.local'`,
    ),
  );
  expect(audited.rows).toEqual([{ targetId: value, correlationId: expect.any(String) }]);
  await page.reload();
  await expect(page.getByTestId("request-deposit-address")).toHaveCount(0);
  await expect(address).toHaveText(value!);
});

test("a deposit simulated on the sandbox appears in the deposit history, raises the balance and its credit is matched", async ({
  page,
}) => {
  await signInAs(page, "finance");
  await page.goto("/wallet");
  const before = await availableUsd(page);
  const cents = 10_000 + Math.floor(Math.random() * 900_000);
  const deposit = (await sandboxControl("POST", "/deposits", { amount: cents / 100, currency: "USD" })) as {
    id: string;
    transactionHash: string;
  };

  await page.reload();
  const row = page.getByTestId("deposits-table").locator(`tr[data-deposit-id="${deposit.id}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("deposit-tx")).toHaveAttribute("title", deposit.transactionHash);
  await expect(row).toContainText(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100));
  expect(await availableUsd(page)).toBe(before + BigInt(cents));

  // The wallet.credited webhook arrives and is processed by the worker: then the credit shows, matched.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("credits-table").locator(`tr[data-deposit-id="${deposit.id}"]`)).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId("balance-chart-USD").locator("svg[role=img]").first().locator("desc")).toContainText(
    "recorded movements",
  );
});

test("a buyer sees the low-balance warning on every page while a balance is below its threshold", async ({ page, browser }) => {
  const admin = await browser.newPage();
  await signInAs(admin, "admin");
  const set = (lowBalance: Record<string, string>) =>
    admin.request.put("/api/settings", { data: { lowBalance }, headers: { origin: ORIGIN } });
  const original = (await (await admin.request.get("/api/settings")).json()) as { lowBalance: Record<string, string> };
  try {
    expect((await set({ ...original.lowBalance, USD: "999999999.00" })).status()).toBe(200);
    await signInAs(page, "buyer");
    for (const path of ["/catalog", "/orders"]) {
      await page.goto(path);
      await expect(page.getByTestId("low-balance-warning")).toContainText("USD available");
      await expect(page.getByTestId("low-balance-warning")).toContainText("below the $999,999,999.00 threshold");
    }
    await expect(page.getByTestId("low-balance-warning").getByRole("link")).toHaveCount(0); // buyers cannot open the wallet
    expect((await set(original.lowBalance)).status()).toBe(200);
    await page.goto("/catalog");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("low-balance-warning")).toHaveCount(0);
  } finally {
    await set(original.lowBalance);
    await admin.close();
  }
});

// Last in this file: it moves the sandbox clock days ahead and simulates a deposit (which creates the address).
/** The chart's daily closing balances, newest first: [day, amount] pairs from its table. */
async function dailyCloses(page: Page): Promise<string[][]> {
  await page.goto("/wallet?chart=USD");
  const table = page.getByTestId("balance-chart-table");
  await page.getByTestId("balance-chart-USD").getByText("Show as a table").click();
  await expect(table).toBeVisible();
  return table
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent ?? "")));
}

test("the wallet chart's past days stay fixed across a new order, a deposit and a payout sent and paid, even with the upstream's clock ahead", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const finance = await (await browser.newContext()).newPage();
  await signInAs(finance, "finance");
  const before = await dailyCloses(finance);
  expect(before.length).toBeGreaterThan(20);
  const pastBefore = before.slice(1);

  // The Issuing Service's clock runs a day ahead of this app's from here on.
  await sandboxControl("POST", "/clock/advance", { seconds: 86_400 });

  const buyer = await (await browser.newContext()).newPage();
  await signInAs(buyer, "buyer");
  const product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD",
  );
  const order = await buyer.request.post("/api/orders", {
    headers: { origin: E2E_ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: `e2e-chart-${Date.now()}`,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: "USD" },
    },
  });
  expect(order.ok()).toBe(true);
  expect((await dailyCloses(finance)).slice(1)).toEqual(pastBefore);

  await sandboxControl("POST", "/deposits", { amount: 123.45, currency: "USD" });
  expect((await dailyCloses(finance)).slice(1)).toEqual(pastBefore);

  // A payout: requested by finance, approved by an approver, sent to the Issuing Service.
  const quote = await finance.request.post("/api/withdrawals", {
    headers: { origin: E2E_ORIGIN },
    data: { amount: "31.07", currency: "USD", reason: "Chart stability check" },
  });
  expect(quote.ok(), await quote.text()).toBe(true);
  const id = ((await quote.json()) as { id: string }).id;
  const approver = await (await browser.newContext()).newPage();
  await signInAs(approver, "approver");
  await namePayoutDetails();
  const approved = await approver.request.post(`/api/withdrawals/${id}/approval`, { headers: { origin: E2E_ORIGIN }, data: {} });
  expect(approved.ok(), await approved.text()).toBe(true);
  const after = await dailyCloses(finance);
  expect(after.slice(1)).toEqual(pastBefore);
  // Today's close moved with them; the axis does not draw a cliff from a cut-off baseline.
  expect(after[0]).not.toEqual(before[0]);
  await expect(finance.getByTestId("chart-axis-break")).toHaveCount(0);

  // A business day later on the upstream's clock the payout is paid; the app learns it on its next sync.
  const stateOf = async () => ((await (await finance.request.get(`/api/withdrawals/${id}`)).json()) as { state: string }).state;
  expect(await stateOf()).toBe("requested");
  await sandboxControl("POST", "/clock/advance", { seconds: 4 * 86_400 });
  await expect.poll(stateOf, { timeout: 30_000, intervals: [1_000, 2_000, 3_000] }).toBe("paid");
  const paid = await dailyCloses(finance);
  expect(paid.slice(1)).toEqual(pastBefore);
  // Paying out moves only the hold: the available balance already left with the send.
  expect(paid[0]).toEqual(after[0]);
  await expect(finance.getByTestId("chart-axis-break")).toHaveCount(0);
});
