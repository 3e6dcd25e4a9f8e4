import { expect, test, type Browser, type Page } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { addStaff, signIn, signInAs, withDb } from "./helpers";
import { findProduct, sandboxControl, upstreamOrdersWithReference, type SandboxProduct } from "./sandbox";

// Spend approvals (issue 15). The threshold is a workspace setting: set here, and cleared
// after, so that every other spec orders exactly as without spend controls.
const ORIGIN = E2E_ORIGIN;
const BUYER_APPROVER = "buyer-approver@demo.local"; // holds buyer and approver: still may not approve their own

let product: SandboxProduct;
let unit = 0;

async function as(browser: Browser, who: "admin" | "approver" | "buyer" | typeof BUYER_APPROVER): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  if (who === BUYER_APPROVER) {
    await signIn(page, BUYER_APPROVER);
    await expect(page.getByTestId("current-staff")).toContainText(BUYER_APPROVER);
  } else await signInAs(page, who);
  return page;
}

async function setThreshold(browser: Browser, amount: string) {
  const admin = await as(browser, "admin");
  const res = await admin.request.put("/api/settings", { headers: { origin: ORIGIN }, data: { spendApprovalAmount: amount } });
  expect(res.ok(), await res.text()).toBe(true);
  await admin.context().close();
}

/** Two units: above the threshold (one and a half units). Returns the waiting request's id. */
async function submitLarge(page: Page, reference: string): Promise<string> {
  const res = await page.request.post("/api/orders", {
    headers: { origin: ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: reference,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 2, currency: "USD" },
      approvalReason: "Partner promotion",
    },
  });
  expect(res.status(), await res.text()).toBe(202);
  return ((await res.json()) as { awaitingApproval: { id: string } }).awaitingApproval.id;
}

const card = (page: Page, id: string) => page.getByTestId(`spend-request-${id}`);

async function approveInUi(page: Page, id: string) {
  await page.goto("/spend-approvals");
  await card(page, id).getByRole("button", { name: "Approve…" }).click();
  await card(page, id).getByRole("button", { name: "Approve and place" }).click();
}

test.beforeAll(async ({ browser }) => {
  await addStaff(BUYER_APPROVER, "Bea Buyer-Approver", ["buyer", "approver"]);
  product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  unit = product.variants[0]!.price;
  await setThreshold(browser, (unit * 1.5).toFixed(2));
});

test.afterAll(async ({ browser }) => {
  await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1 });
  await setThreshold(browser, "");
});

test("an order above the threshold waits; its buyer holding approver cannot approve it; another approver does, and it is placed and fulfilled", async ({
  browser,
}) => {
  const buyer = await as(browser, BUYER_APPROVER);
  const reference = `e2e-spend-${Date.now()}`;
  await buyer.goto(`/catalog/${encodeURIComponent(product.id)}`);
  await buyer.getByLabel("Quantity").fill("2");
  await buyer.getByLabel("Client reference").fill(reference);
  // Said before submitting, not after.
  await expect(buyer.getByTestId("needs-approval")).toContainText("needs approval");
  await buyer.getByLabel("Why is this order needed?").fill("Partner promotion");
  await buyer.getByRole("button", { name: "Buy now" }).click();
  await expect(buyer.getByTestId("submitted-for-approval")).toBeVisible();
  const id = new URL(buyer.url()).searchParams.get("submitted")!;
  await expect(card(buyer, id).getByTestId("own-request")).toBeVisible();
  await expect(card(buyer, id).getByRole("button", { name: "Approve…" })).toHaveCount(0);

  const forged = await buyer.request.post(`/api/spend-requests/${id}/approval`, { headers: { origin: ORIGIN }, data: {} });
  expect(forged.status()).toBe(403);
  expect(((await forged.json()) as { code: string }).code).toBe("own_request");
  expect(await upstreamOrdersWithReference(reference)).toHaveLength(0);

  const approver = await as(browser, "approver");
  await approveInUi(approver, id);
  await expect(card(approver, id).getByTestId("spend-state")).toHaveText("Placed");
  await expect
    .poll(async () => (await upstreamOrdersWithReference(reference)).map((o) => o.status), { timeout: 20_000 })
    .toEqual(["fulfilled"]);

  // Issues 38 and 39: every step is on the audit page under its label, found with the Action filter.
  const admin = await as(browser, "admin");
  await admin.goto("/audit");
  await admin.getByLabel("Action").selectOption("spend.*");
  await admin.getByRole("button", { name: "Filter" }).click();
  await expect(admin).toHaveURL(/action=spend\.(\*|%2A)/);
  const rows = admin.locator("[data-testid=audit-table] tbody tr");
  await expect(rows.first()).toHaveAttribute("data-action", /^spend\./);
  for (const action of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-action"))))
    expect(action).toMatch(/^spend\./);
  const entries = rows.filter({ hasText: id });
  for (const label of [
    "Asked for a spend approval",
    "Tried to decide own spend request",
    "Approved a spend request",
    "Approved order placed",
  ])
    await expect(entries.filter({ hasText: label })).toHaveCount(1);
  // The stored totals (minor units) read as an amount.
  await expect(entries.filter({ hasText: "Approved a spend request" })).toContainText(/totals: \d+\.\d{2} USD/);
  await expect(entries.first().getByTestId("audit-target").getByRole("link")).toHaveAttribute("href", "/spend-approvals");
});

test("a rejected request and an expired one are never sent", async ({ browser }) => {
  const buyer = await as(browser, "buyer");
  const rejectedRef = `e2e-spend-rejected-${Date.now()}`;
  const expiredRef = `e2e-spend-expired-${Date.now()}`;
  const rejected = await submitLarge(buyer, rejectedRef);
  const expired = await submitLarge(buyer, expiredRef);

  const approver = await as(browser, "approver");
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
});

test("a price rise between request and approval returns it to the approver with the old and new totals", async ({ browser }) => {
  const buyer = await as(browser, "buyer");
  const reference = `e2e-spend-price-${Date.now()}`;
  const id = await submitLarge(buyer, reference);
  await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1.5 });
  try {
    const approver = await as(browser, "approver");
    await approveInUi(approver, id);
    await expect(card(approver, id).getByTestId("price-changed")).toBeVisible();
    await expect(card(approver, id).getByTestId("spend-state")).toHaveText("Awaiting approval");
    await expect(card(approver, id).getByRole("button", { name: "Approve…" })).toBeVisible();
    expect(await upstreamOrdersWithReference(reference)).toHaveLength(0);
  } finally {
    await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1 });
  }
});
