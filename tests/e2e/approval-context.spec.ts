import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { approvalReasons, approvalWhy } from "../../lib/spend/approval-reasons";
import { UNNAMED_DESTINATION } from "../../lib/withdrawals/payout-destination";
import { addStaff, askForApproval, DESKTOP, E2E_PAYOUT_NAME, namePayoutDetails, signedInPage, withDb } from "./helpers";
import { findProduct, type SandboxProduct } from "./sandbox";
import { expectNoAxeViolations } from "./axe";

// Issue 50, items 3.6 and 3.7: what an approver and a buyer read around an approval. The
// threshold is a workspace setting, set here and cleared after; the limit is this spec's buyer's own.
const ORIGIN = E2E_ORIGIN;
// A buyer of this run alone: nothing counts against their limit but what this spec does.
const BUYER = `approval-context-${Date.now()}@demo.local`;
const PHONE = { width: 390, height: 844 };

let product: SandboxProduct;
let unitCents = 0;

const usd = (cents: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

/** Signed in as a demo role, or as this spec's buyer (an email). */
const as = (browser: Browser, who: "admin" | "approver" | "finance" | "buyer-of-spec", viewport = DESKTOP) =>
  signedInPage(browser, who === "buyer-of-spec" ? BUYER : who, { viewport });

async function putAsAdmin(browser: Browser, url: string, data: Record<string, unknown>) {
  const admin = await as(browser, "admin");
  const res = await admin.request.put(url, { headers: { origin: ORIGIN }, data });
  expect(res.ok(), await res.text()).toBe(true);
  await admin.context().close();
}

/** With E2E_SCREENSHOTS=1, the screen as a person sees it, kept under test-results/ (never committed). */
async function keepScreenshot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS === "1") await page.screenshot({ path: `test-results/approval-context/${name}.png` });
}

/** The approver's last proof is older than the step-up window: their next approval asks again. */
async function ageProof(email: string) {
  await withDb((db) =>
    db.query(
      `UPDATE "StaffSession" SET "reauthAt" = now() - interval '2 hours'
       WHERE "endedAt" IS NULL AND "staffId" = (SELECT id FROM "Staff" WHERE email = $1)`,
      [email],
    ),
  );
}

/** The threshold and the buyer's daily limit, in cents: below two units, above one. */
const thresholdCents = () => Math.floor(unitCents * 1.5);

const card = (page: Page, id: string) => page.getByTestId(`spend-request-${id}`);

test.beforeAll(async ({ browser }) => {
  await addStaff(BUYER, "Ada Approvalcontext", ["buyer"]);
  product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  unitCents = Math.round(product.variants[0]!.price * 100);
  // About one and a half units: two units pass both the threshold and the daily limit.
  const limit = (thresholdCents() / 100).toFixed(2);
  await putAsAdmin(browser, "/api/settings", { spendApprovalAmount: limit });
  const buyerId = (await withDb((db) => db.query<{ id: string }>(`SELECT id FROM "Staff" WHERE email = $1`, [BUYER]))).rows[0]!
    .id;
  await putAsAdmin(browser, "/api/spend-limits", {
    scope: buyerId,
    currency: "USD",
    perOrder: "",
    perDay: limit,
    perMonth: "",
  });
});

test.afterAll(async ({ browser }) => {
  await putAsAdmin(browser, "/api/settings", { spendApprovalAmount: "" });
  await namePayoutDetails();
});

test("an order past the threshold and the daily limit: the buyer's form reads its spend one fact a line, names both reasons, offers one 'Ask for approval'; the approver's card names both", async ({
  browser,
}) => {
  const threshold = thresholdCents();
  const two = unitCents * 2;
  // Both reasons, in the words the card and the form read (lib/spend/approval-reasons.ts).
  const why = approvalWhy(
    approvalReasons(
      {
        currency: "USD",
        thresholdMinor: BigInt(threshold),
        perOrderMinor: null,
        day: { limitMinor: BigInt(threshold), spentMinor: 0n },
        month: null,
      },
      BigInt(two),
    ),
  );
  expect(why).toBe(
    `its total of ${usd(two)} is above the approval threshold of ${usd(threshold)}, and ` +
      `it is above the daily limit of ${usd(threshold)}`,
  );

  const buyer = await as(browser, "buyer-of-spec");
  const reference = `e2e-context-${Date.now()}`;
  await buyer.goto(`/catalog/${encodeURIComponent(product.id)}`);
  await buyer.getByLabel("Quantity").fill("2");
  await buyer.getByLabel("Client reference").fill(reference);

  // The spend block: one fact a line, not one run-on sentence.
  const spend = buyer.getByRole("region", { name: "Your spending" });
  await expect(spend.getByTestId("spend-today")).toHaveText(`Left today (UTC): ${usd(threshold)} of ${usd(threshold)}`);
  await expect(spend.getByTestId("spend-threshold")).toHaveText(`Approval needed above: ${usd(threshold)}`);
  await expect(spend.getByTestId("spend-this-order")).toHaveText(`This order: about ${usd(two)} at the listed price`);

  // Why, every reason, as one sentence that reads; and one button that asks.
  const approval = buyer.getByRole("region", { name: "Approval" });
  await expect(approval).toContainText(
    `This order needs approval because ${why}. It is not placed until another person with the approver role agrees.`,
  );
  await expect(buyer.getByRole("button", { name: "Ask for approval" })).toHaveCount(1);
  const quote = buyer.getByRole("region", { name: "Quote" });
  await quote.getByRole("button", { name: "Get quote" }).click();
  await expect(quote.getByTestId("quote-total")).toHaveText(usd(two));
  await expect(spend.getByTestId("spend-this-order")).toHaveText(`This order: ${usd(two)} (the quote)`);
  await expect(buyer.getByRole("button", { name: "Ask for approval" })).toHaveCount(1);
  await expect(buyer.getByRole("region", { name: "Buy now" })).toHaveCount(0);
  await expect(approval.getByTestId("approval-asked-at")).toHaveText(`At the quote's total, ${usd(two)}.`);

  // The form with its reason error, at both sizes, passes axe.
  await approval.getByRole("button", { name: "Ask for approval" }).click();
  await expect(buyer.getByTestId("error-approvalReason")).toBeVisible();
  await expectNoAxeViolations(buyer, "order form, reason missing, desktop");
  await spend.scrollIntoViewIfNeeded();
  await keepScreenshot(buyer, "order-form-desktop");
  await buyer.setViewportSize(PHONE);
  await expectNoAxeViolations(buyer, "order form, reason missing, phone");
  await spend.scrollIntoViewIfNeeded();
  await keepScreenshot(buyer, "order-form-phone");
  await buyer.setViewportSize(DESKTOP);

  await buyer.getByLabel("Why is this order needed?").fill("Launch gifts");
  await approval.getByRole("button", { name: "Ask for approval" }).click();
  await expect(buyer.getByTestId("submitted-for-approval")).toBeVisible();
  const id = new URL(buyer.url()).searchParams.get("submitted")!;

  for (const viewport of [DESKTOP, PHONE]) {
    const approver = await as(browser, "approver", viewport);
    await approver.goto("/spend-approvals");
    const c = card(approver, id);
    await expect(c.getByTestId("spend-why")).toHaveText(`${why}.`);
    await expect(c).toContainText(`Needs approval because ${why}.`);
    await expectNoAxeViolations(approver, `spend approvals, ${viewport.width} px`);
    await c.scrollIntoViewIfNeeded();
    await keepScreenshot(approver, `spend-card-${viewport.width}`);
    await approver.context().close();
  }
});

test("the step-up prompt before an approval says what is approved, with its amount, and leaves the card's total in view", async ({
  browser,
}) => {
  const buyer = await as(browser, "buyer-of-spec");
  const reference = `e2e-context-stepup-${Date.now()}`;
  const id = await askForApproval(buyer, product, { reference: reference, reason: "Launch gifts" });
  const total = usd(unitCents * 2);

  for (const viewport of [DESKTOP, PHONE]) {
    const approver = await as(browser, "approver", viewport);
    await ageProof("approver@demo.local");
    await approver.goto("/spend-approvals");
    const c = card(approver, id);
    await c.getByRole("button", { name: "Approve…" }).click();
    await c.getByRole("button", { name: "Approve and place" }).click();
    const dialog = approver.getByRole("dialog", { name: "Confirm it is you" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("step-up-confirming")).toHaveText(
      `You are confirming: Approve the order of 2\u00a0× ${product.name} ${product.variants[0]!.displayValue} for ${total}`,
    );
    // The card's heading with the total is not under the dialog.
    const heading = c.getByRole("heading", { level: 2 });
    await heading.scrollIntoViewIfNeeded();
    const [h, d] = [await heading.boundingBox(), await dialog.boundingBox()];
    expect(h && d && (h.y + h.height <= d.y || h.y >= d.y + d.height), "the card's total is not covered").toBe(true);
    await expectNoAxeViolations(approver, `step-up prompt, ${viewport.width} px`);
    await keepScreenshot(approver, `step-up-${viewport.width}`);
    if (viewport === DESKTOP) {
      // A keyboard stays in the prompt: focus starts in it and Tab never leaves it.
      const focusInDialog = () =>
        approver.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="step-up-dialog"]')));
      expect(await focusInDialog()).toBe(true);
      for (const key of ["Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
        await approver.keyboard.press(key);
        expect(await focusInDialog(), `after ${key}`).toBe(true);
      }
      // Escape cancels, and focus is back on the button that asked; nothing is approved.
      await approver.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(c.getByRole("button", { name: "Approve and place" })).toBeFocused();
      await expect(c.getByTestId("spend-state")).toHaveText("Awaiting approval");
      // So does Cancel.
      await c.getByRole("button", { name: "Approve and place" }).click();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(c.getByTestId("spend-state")).toHaveText("Awaiting approval");
    } else {
      await dialog.getByLabel("Your password").fill(DEMO_PASSWORD);
      await dialog.getByRole("button", { name: "Confirm and continue" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(c.getByTestId("spend-state")).toHaveText("Placed");
    }
    await approver.context().close();
  }
});

test("a withdrawal whose destination is not named cannot be approved: the button is disabled with the reason, and the server answers 409", async ({
  browser,
}) => {
  const finance = await as(browser, "finance");
  const requested = await finance.request.post("/api/withdrawals", {
    headers: { origin: ORIGIN },
    data: { amount: "23.41", currency: "USD", reason: "Approval context check" },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  const id = ((await requested.json()) as { id: string }).id;
  const withdrawal = (page: Page) => page.locator(`[data-testid="withdrawal"][data-id="${id}"]`);

  await namePayoutDetails("");
  try {
    for (const viewport of [DESKTOP, PHONE]) {
      const approver = await as(browser, "approver", viewport);
      await approver.goto("/withdrawals?state=pending");
      const w = withdrawal(approver);
      await expect(w.getByTestId("withdrawal-payout-name")).toHaveText(
        "the payout details registered with the Issuing Service, not named yet",
      );
      const approve = w.getByRole("button", { name: "Approve…" });
      await expect(approve).toBeDisabled();
      await expect(w.getByTestId("approve-unavailable")).toHaveText(UNNAMED_DESTINATION);
      await expect(approve).toHaveAccessibleDescription(UNNAMED_DESTINATION);
      // Rejecting does not need the destination.
      await expect(w.getByRole("button", { name: "Reject…" })).toBeEnabled();
      await expectNoAxeViolations(approver, `withdrawals, unnamed destination, ${viewport.width} px`);
      await w.scrollIntoViewIfNeeded();
      await keepScreenshot(approver, `withdrawal-unnamed-${viewport.width}`);
      await approver.context().close();
    }
    const approver = await as(browser, "approver");
    const forced = await approver.request.post(`/api/withdrawals/${id}/approval`, { headers: { origin: ORIGIN }, data: {} });
    expect(forced.status()).toBe(409);
    expect(await forced.json()).toMatchObject({ code: "payout_details_unnamed", detail: UNNAMED_DESTINATION });
    const after = (await (await approver.request.get(`/api/withdrawals/${id}`)).json()) as { state: string; decidedBy: unknown };
    expect(after).toMatchObject({ state: "pending", decidedBy: null });
  } finally {
    await namePayoutDetails();
  }

  // Named, the card says where it goes, and approving it is possible again; rejected here.
  const approver = await as(browser, "approver");
  await approver.goto("/withdrawals?state=pending");
  await expect(withdrawal(approver).getByTestId("withdrawal-payout-name")).toContainText(E2E_PAYOUT_NAME);
  await expect(withdrawal(approver).getByRole("button", { name: "Approve…" })).toBeEnabled();
  await expect(withdrawal(approver).getByTestId("approve-unavailable")).toHaveCount(0);
  const rejected = await approver.request.post(`/api/withdrawals/${id}/rejection`, {
    headers: { origin: ORIGIN },
    data: { comment: "Only checked here" },
  });
  expect(rejected.ok(), await rejected.text()).toBe(true);
});
