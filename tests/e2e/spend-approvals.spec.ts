import { expect, test, type Page } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { addStaff, askForApproval, putSettingsAsAdmin, signedInPage, withDb } from "./helpers";
import { findProduct, sandboxApi, sandboxControl, upstreamOrdersWithReference, type SandboxProduct } from "./sandbox";

// Spend approvals (issue 15). The threshold is a workspace setting: set here, and cleared
// after, so that every other spec orders exactly as without spend controls.
const ORIGIN = E2E_ORIGIN;
const BUYER_APPROVER = "buyer-approver@demo.local"; // holds buyer and approver: still may not approve their own
const CARD_BUYER = "card-buyer@demo.local"; // a buyer of this spec alone: their spend so far is exactly what it does
const COUNTED_BUYER = "counted-buyer@demo.local"; // likewise, for the spend an approved order leaves

let product: SandboxProduct;
let unit = 0;

const usd = (amount: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount);
/** "$1,234.56" → 123456 (cents), the first amount in a text. */
const centsIn = (text: string) => Number((/-?\$[\d,]+\.\d\d/.exec(text)?.[0] ?? "NaN").replace(/[$,]/g, "").replace(".", ""));

/** With E2E_SCREENSHOTS=1, a card as a person sees it, kept under test-results/ (never committed). */
async function keepScreenshot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS === "1") await page.screenshot({ path: `test-results/cards/${name}.png`, fullPage: true });
}

const card = (page: Page, id: string) => page.getByTestId(`spend-request-${id}`);

async function approveInUi(page: Page, id: string) {
  await page.goto("/spend-approvals");
  await card(page, id).getByRole("button", { name: "Approve…" }).click();
  await card(page, id).getByRole("button", { name: "Approve and place" }).click();
}

test.beforeAll(async ({ browser }) => {
  await addStaff(BUYER_APPROVER, "Bea Buyer-Approver", ["buyer", "approver"]);
  await addStaff(CARD_BUYER, "Cary Cardbuyer", ["buyer"]);
  await addStaff(COUNTED_BUYER, "Cora Counted", ["buyer"]);
  product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  unit = product.variants[0]!.price;
  await putSettingsAsAdmin(browser, { spendApprovalAmount: (unit * 1.5).toFixed(2) });
});

test.afterAll(async ({ browser }) => {
  await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1 });
  await putSettingsAsAdmin(browser, { spendApprovalAmount: "" });
});

test("an order above the threshold waits; its buyer holding approver cannot approve it; another approver does, and it is placed and fulfilled", async ({
  browser,
}) => {
  const buyer = await signedInPage(browser, BUYER_APPROVER);
  const reference = `e2e-spend-${Date.now()}`;
  await buyer.goto(`/catalog/${encodeURIComponent(product.id)}`);
  await buyer.getByLabel("Quantity").fill("2");
  await buyer.getByLabel("Client reference").fill(reference);
  // Said before submitting, not after, with why (issue 50: every reason, as one sentence); and
  // one button asks (issue 39: it says what it does, nothing is placed yet).
  const approval = buyer.getByRole("region", { name: "Approval" });
  await expect(approval).toContainText("This order needs approval because its total of");
  const ask = approval.getByRole("button", { name: "Ask for approval" });
  await expect(buyer.getByRole("button", { name: "Ask for approval" })).toHaveCount(1);
  await expect(approval.getByTestId("approval-asked-at")).toHaveText(/^At the current price, about \$[\d,]+\.\d\d\.$/);
  await expect(buyer.getByRole("button", { name: "Buy now" })).toHaveCount(0);
  const quote = buyer.getByRole("region", { name: "Quote" });
  await quote.getByRole("button", { name: "Get quote" }).click();
  await expect(quote.getByTestId("quote-total")).toBeVisible();
  const quoted = (await quote.getByTestId("quote-total").textContent())!;
  await expect(buyer.getByRole("button", { name: "Ask for approval" })).toHaveCount(1);
  await expect(approval.getByTestId("approval-asked-at")).toHaveText(`At the quote's total, ${quoted}.`);
  await expect(quote.getByRole("button", { name: "Place order" })).toHaveCount(0);
  // Without a reason: the reason field says so, at the field; no refusal box, nothing sent.
  await ask.click();
  await expect(buyer.getByTestId("error-approvalReason")).toHaveText("Say why this order is needed: an approver reads it.");
  await expect(buyer.getByLabel("Why is this order needed?")).toHaveAttribute("aria-invalid", "true");
  await expect(buyer.getByLabel("Why is this order needed?")).toBeFocused();
  await expect(buyer.getByTestId("order-problem")).toHaveCount(0);
  await expect(buyer.getByText("Request refused")).toHaveCount(0);
  expect(await buyer.evaluate(() => location.pathname)).toBe(`/catalog/${encodeURIComponent(product.id)}`);
  await buyer.getByLabel("Why is this order needed?").fill("Partner promotion");
  await expect(buyer.getByTestId("error-approvalReason")).toHaveCount(0);
  await ask.click();
  await expect(buyer.getByTestId("submitted-for-approval")).toBeVisible();
  const id = new URL(buyer.url()).searchParams.get("submitted")!;
  await expect(card(buyer, id).getByTestId("own-request")).toBeVisible();
  await expect(card(buyer, id).getByRole("button", { name: "Approve…" })).toHaveCount(0);

  const forged = await buyer.request.post(`/api/spend-requests/${id}/approval`, { headers: { origin: ORIGIN }, data: {} });
  expect(forged.status()).toBe(403);
  expect(((await forged.json()) as { code: string }).code).toBe("own_request");
  expect(await upstreamOrdersWithReference(reference)).toHaveLength(0);

  const approver = await signedInPage(browser, "approver");
  await approveInUi(approver, id);
  await expect(card(approver, id).getByTestId("spend-state")).toHaveText("Placed");
  await expect
    .poll(async () => (await upstreamOrdersWithReference(reference)).map((o) => o.status), { timeout: 20_000 })
    .toEqual(["fulfilled"]);

  // Issues 38 and 39: every step is on the audit page under its label, found with the Action filter.
  const admin = await signedInPage(browser, "admin");
  await admin.goto("/audit");
  await admin.getByLabel("Action").selectOption("spend.*");
  await admin.getByRole("button", { name: "Filter" }).click();
  await expect(admin).toHaveURL(/action=spend\.(\*|%2A)/);
  const rows = admin.locator("[data-testid=audit-table] tbody tr");
  await expect(rows.first()).toHaveAttribute("data-action", /^spend\./);
  for (const action of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-action"))))
    expect(action).toMatch(/^spend\./);
  // Each entry about this request links to its card, by its id; the id itself is not shown.
  const entries = rows.filter({ has: admin.getByTestId("audit-target").locator(`a[href="/spend-approvals#${id}"]`) });
  for (const label of [
    "Asked for a spend approval",
    "Tried to decide own spend request",
    "Approved a spend request",
    "Approved order placed",
  ])
    await expect(entries.filter({ hasText: label })).toHaveCount(1);
  // The stored totals (minor units) read as an amount.
  await expect(entries.filter({ hasText: "Approved a spend request" })).toContainText(/totals: \d+\.\d{2} USD/);
  await expect(entries.first().getByTestId("audit-target")).toHaveText("spend request");
});

test("an approver's card lists what is bought (product link, variant, quantity, unit and total, currency), the buyer's spend against their limits and the wallet after it", async ({
  browser,
}) => {
  const admin = await signedInPage(browser, "admin");
  const buyerId = (await withDb((db) => db.query<{ id: string }>(`SELECT id FROM "Staff" WHERE email = $1`, [CARD_BUYER])))
    .rows[0]!.id;
  const limit = await admin.request.put("/api/spend-limits", {
    headers: { origin: ORIGIN },
    data: { scope: buyerId, currency: "USD", perOrder: "", perDay: "500.00", perMonth: "5000.00" },
  });
  expect(limit.ok(), await limit.text()).toBe(true);
  try {
    const buyer = await signedInPage(browser, CARD_BUYER);
    const reference = `e2e-spend-card-${Date.now()}`;
    const id = await askForApproval(buyer, product, { reference, reason: "Client gifts for the launch", quantity: 3 });
    const total = Math.round(unit * 100) * 3;

    for (const [size, viewport] of [
      ["desktop", { width: 1440, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      const approver = await signedInPage(browser, "approver", { viewport });
      await approver.goto("/wallet"); // a fresh read of the balance: the card's figure is then exactly the supplier's
      await approver.goto("/spend-approvals");
      const c = card(approver, id);
      await expect(c.getByRole("heading", { level: 2 })).toContainText(`Order ${reference} · ${usd(unit * 3)}`);
      if (size === "desktop") {
        const line = c.getByTestId("spend-line");
        await expect(line).toHaveCount(1);
        await expect(line.getByRole("link", { name: product.name })).toHaveAttribute(
          "href",
          `/catalog/${encodeURIComponent(product.id)}`,
        );
        await expect(line.getByTestId("spend-line-option")).toHaveText(product.variants[0]!.displayValue);
        await expect(line.getByTestId("spend-line-quantity")).toHaveText("3");
        await expect(line.getByTestId("spend-line-unit")).toHaveText(usd(unit));
        await expect(line.getByTestId("spend-line-total")).toHaveText(`${usd(total / 100)} USD`);
      } else {
        // On a phone the line reads as one sentence under its product, all of it on the screen.
        const line = c.getByTestId("spend-line-compact");
        await expect(line).toHaveCount(1);
        await expect(line.getByRole("link", { name: product.name })).toBeVisible();
        await expect(line).toContainText(`${product.variants[0]!.displayValue} · 3 × ${usd(unit)} = ${usd(total / 100)} USD`);
        await expect(c.getByTestId("spend-lines")).toBeHidden();
      }
      await expect(c.getByTestId("spend-priced")).toContainText(
        /Priced when the buyer asked at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \((under a minute|\d+ min) ago\)/,
      );

      // Spend so far: this buyer's first request, against their limits (UTC day and month).
      const today = c.getByTestId("spend-so-far-today");
      await expect(today).toHaveText(`Today${usd(0)}${usd(total / 100)}${usd(500)}`);
      await expect(c.getByTestId("spend-so-far-month")).toHaveText(`This month${usd(0)}${usd(total / 100)}${usd(5000)}`);

      // The wallet: available now is the supplier's figure, and after is that less the order's total.
      const balance = c.getByTestId("balance-after-USD");
      await expect(balance).toBeVisible();
      const supplier = (await sandboxApi<{ availableBalance: number }>("/wallet/balance?currency=USD")).availableBalance;
      const text = (await balance.textContent()) ?? "";
      expect(centsIn(text)).toBe(Math.round(supplier * 100));
      expect(centsIn((await balance.getByTestId("balance-after-amount").textContent()) ?? "")).toBe(
        Math.round(supplier * 100) - total,
      );
      await expect(c.getByTestId("balance-after-read-at")).toHaveText(/As read at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\.$/);

      // Nothing of the card is wider than the screen.
      const { scrollWidth, innerWidth } = await approver.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, size).toBeLessThanOrEqual(innerWidth);
      await c.scrollIntoViewIfNeeded();
      await keepScreenshot(approver, `spend-order-${size}`);
      await approver.context().close();
    }

    // The product link leads to the product.
    const approver = await signedInPage(browser, "approver");
    await approver.goto("/spend-approvals");
    await card(approver, id).getByRole("link", { name: product.name }).click();
    await expect(approver).toHaveURL(new RegExp(`/catalog/${encodeURIComponent(product.id)}$`));
    await expect(approver.getByRole("heading", { level: 1 })).toHaveText(product.name);
  } finally {
    await admin.request.put("/api/spend-limits", {
      headers: { origin: ORIGIN },
      data: { scope: buyerId, currency: "USD", perOrder: "", perDay: "", perMonth: "" },
    });
  }
});

test("after an approved order is placed, the approver's card says the buyer's real spend today, and the order form counts it once", async ({
  browser,
}) => {
  const admin = await signedInPage(browser, "admin");
  const buyerId = (await withDb((db) => db.query<{ id: string }>(`SELECT id FROM "Staff" WHERE email = $1`, [COUNTED_BUYER])))
    .rows[0]!.id;
  const setLimits = (perDay: string, perMonth: string) =>
    admin.request.put("/api/spend-limits", {
      headers: { origin: ORIGIN },
      data: { scope: buyerId, currency: "USD", perOrder: "", perDay, perMonth },
    });
  expect((await setLimits("500.00", "5000.00")).ok()).toBe(true);
  try {
    const buyer = await signedInPage(browser, COUNTED_BUYER);
    const placedRef = `e2e-spend-counted-${Date.now()}`;
    const placed = await askForApproval(buyer, product, { reference: placedRef, reason: "Partner promotion" });
    const approver = await signedInPage(browser, "approver");
    await approveInUi(approver, placed);
    await expect(card(approver, placed).getByTestId("spend-state")).toHaveText("Placed");
    await expect
      .poll(async () => (await upstreamOrdersWithReference(placedRef)).map((o) => o.status), { timeout: 20_000 })
      .toEqual(["fulfilled"]);
    // The buyer's real spend: what the supplier charged for the one order placed.
    const orders = await sandboxApi<{ items: { total: number }[] }>(`/orders?clientReference=${encodeURIComponent(placedRef)}`);
    const spent = Math.round(orders.items[0]!.total * 100);
    const asked = Math.round(unit * 100) * 2;

    const waiting = await askForApproval(buyer, product, {
      reference: `e2e-spend-counted-next-${Date.now()}`,
      reason: "Partner promotion",
    });
    await approver.goto("/spend-approvals");
    const c = card(approver, waiting);
    await expect(c.getByTestId("spend-so-far-today")).toHaveText(
      `Today${usd(spent / 100)}${usd((spent + asked) / 100)}${usd(500)}`,
    );
    await expect(c.getByTestId("spend-so-far-month")).toHaveText(
      `This month${usd(spent / 100)}${usd((spent + asked) / 100)}${usd(5000)}`,
    );
    // The order form's "left" counts the placed order and the waiting request, each once.
    await buyer.goto(`/catalog/${encodeURIComponent(product.id)}`);
    await expect(buyer.getByTestId("spend-limits")).toContainText(`Left today (UTC): ${usd((50_000 - spent - asked) / 100)} of`);

    const rejected = await approver.request.post(`/api/spend-requests/${waiting}/rejection`, {
      headers: { origin: ORIGIN },
      data: { comment: "Test done" },
    });
    expect(rejected.ok(), await rejected.text()).toBe(true);
  } finally {
    await setLimits("", "");
  }
});

test("a bulk file's card sums its rows by product and offers every row as a CSV", async ({ browser }) => {
  const buyer = await signedInPage(browser, "buyer");
  const batch = `e2e-spend-file-${Date.now()}`;
  const csv = [
    "productId,variantId,value,quantity,clientReference,phoneNumber",
    `${product.id},${product.variants[0]!.id},,1,${batch}-1,`,
    `${product.id},${product.variants[0]!.id},,2,${batch}-2,`,
  ].join("\n");
  const upload = await buyer.request.post("/api/bulk-orders", {
    headers: { origin: ORIGIN },
    data: { csv, fileName: `${batch}.csv` },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const file = ((await upload.json()) as { id: string }).id;
  const confirm = await buyer.request.post(`/api/bulk-orders/${file}/confirm`, {
    headers: { origin: ORIGIN },
    data: { approvalReason: "Partner launch" },
  });
  expect(confirm.ok(), await confirm.text()).toBe(true);
  const id = (await withDb((db) => db.query<{ id: string }>(`SELECT id FROM "SpendRequest" WHERE "bulkOrderId" = $1`, [file])))
    .rows[0]!.id;

  for (const [size, viewport] of [
    ["desktop", { width: 1440, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    const approver = await signedInPage(browser, "approver", { viewport });
    await approver.goto("/spend-approvals");
    const c = card(approver, id);
    await expect(c.getByRole("heading", { level: 2 })).toContainText(`Bulk file ${batch}.csv · ${usd(unit * 3)}`);
    await expect(c.getByTestId("spend-bulk-rows")).toHaveText(`2 rows to place from ${batch}.csv, by product:`);
    if (size === "desktop") {
      const line = c.getByTestId("spend-line");
      await expect(line).toHaveCount(1);
      await expect(line.getByRole("link", { name: product.name })).toBeVisible();
      await expect(line.getByTestId("spend-line-option")).toHaveText(product.variants[0]!.displayValue);
      await expect(line.getByTestId("spend-line-quantity")).toHaveText("3");
      await expect(line.getByTestId("spend-line-unit")).toHaveText(usd(unit));
      await expect(line.getByTestId("spend-line-total")).toHaveText(`${usd(unit * 3)} USD`);
    } else {
      const line = c.getByTestId("spend-line-compact");
      await expect(line.getByRole("link", { name: product.name })).toBeVisible();
      await expect(line).toContainText(`${product.variants[0]!.displayValue} · 2 rows · 3 × ${usd(unit)} = ${usd(unit * 3)} USD`);
    }
    await expect(c.getByTestId("spend-facts")).toBeVisible();
    await c.scrollIntoViewIfNeeded();
    await keepScreenshot(approver, `spend-bulk-${size}`);
    if (size === "desktop") {
      const download = approver.waitForEvent("download");
      await c.getByTestId("spend-rows-download").click();
      const saved = await (await download).path();
      const { readFile } = await import("node:fs/promises");
      const rows = (await readFile(saved, "utf8")).trim().split("\r\n");
      expect(rows[0]).toBe("row,clientReference,productId,product,option,quantity,total,currency");
      expect(rows.slice(1).map((r) => r.split(",")[1])).toEqual([`${batch}-1`, `${batch}-2`]);
    }
    await approver.context().close();
  }
  // Cancelled by its buyer: it stops waiting (and counting) for the specs after this one.
  const cancel = await buyer.request.post(`/api/bulk-orders/${file}/cancel`, { headers: { origin: ORIGIN }, data: {} });
  expect(cancel.ok(), await cancel.text()).toBe(true);
});

test("a rejected request and an expired one are never sent", async ({ browser }) => {
  const buyer = await signedInPage(browser, "buyer");
  const rejectedRef = `e2e-spend-rejected-${Date.now()}`;
  const expiredRef = `e2e-spend-expired-${Date.now()}`;
  const rejected = await askForApproval(buyer, product, { reference: rejectedRef, reason: "Partner promotion" });
  const expired = await askForApproval(buyer, product, { reference: expiredRef, reason: "Partner promotion" });

  const approver = await signedInPage(browser, "approver");
  await approver.goto("/spend-approvals");
  await card(approver, rejected).getByRole("button", { name: "Reject…" }).click();
  await card(approver, rejected).getByLabel("Why is it rejected?").fill("Not in this quarter's budget");
  await card(approver, rejected).getByRole("button", { name: "Reject", exact: true }).click();
  await expect(card(approver, rejected).getByTestId("spend-state")).toHaveText("Rejected");

  await withDb((db) => db.query(`UPDATE "SpendRequest" SET "expiresAt" = now() - interval '1 minute' WHERE id = $1`, [expired]));
  // The worker's pass expires it (every 15 s).
  await expect
    .poll(async () => ((await (await buyer.request.get(`/api/spend-requests/${expired}`)).json()) as { state: string }).state, {
      timeout: 45_000,
    })
    .toBe("expired");
  const late = await approver.request.post(`/api/spend-requests/${expired}/approval`, { headers: { origin: ORIGIN }, data: {} });
  expect(late.status()).toBe(409);

  expect(await upstreamOrdersWithReference(rejectedRef)).toHaveLength(0);
  expect(await upstreamOrdersWithReference(expiredRef)).toHaveLength(0);

  // The buyer's home tells them (issue 39): rejected, with the approver's words; expired; nothing bought.
  await buyer.goto("/");
  const mine = buyer.getByTestId("home-spend-list");
  await expect(mine.locator(`[data-id="${rejected}"]`)).toContainText(`Order ${rejectedRef}`);
  await expect(mine.locator(`[data-id="${rejected}"]`)).toContainText("Rejected");
  await expect(mine.locator(`[data-id="${rejected}"]`)).toContainText("Not in this quarter's budget");
  await expect(mine.locator(`[data-id="${expired}"]`)).toContainText("Expired");
  await mine
    .locator(`[data-id="${rejected}"]`)
    .getByRole("link", { name: `Order ${rejectedRef}` })
    .click();
  await expect(buyer).toHaveURL(new RegExp(`/spend-approvals#${rejected}$`));
  await expect(card(buyer, rejected).getByTestId("spend-state")).toHaveText("Rejected");
});

test("a price rise between request and approval returns it to the approver with the old and new totals", async ({ browser }) => {
  const buyer = await signedInPage(browser, "buyer");
  const reference = `e2e-spend-price-${Date.now()}`;
  const id = await askForApproval(buyer, product, { reference: reference, reason: "Partner promotion" });
  await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1.5 });
  try {
    const approver = await signedInPage(browser, "approver");
    await approveInUi(approver, id);
    await expect(card(approver, id).getByTestId("price-changed")).toBeVisible();
    await expect(card(approver, id).getByTestId("spend-state")).toHaveText("Awaiting approval");
    await expect(card(approver, id).getByRole("button", { name: "Approve…" })).toBeVisible();
    expect(await upstreamOrdersWithReference(reference)).toHaveLength(0);
  } finally {
    await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1 });
  }
});
