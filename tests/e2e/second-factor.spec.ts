import { expect, test, type Browser, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { addStaff, E2E_PAYOUT_NAME, namePayoutDetails, signIn, signInAs, withDb } from "./helpers";
import { findProduct } from "./sandbox";

/**
 * The second factor in the real app and Chromium: an authenticator app enrolled from the key
 * the page shows (codes computed from it as an authenticator does), a passkey on Chromium's
 * virtual authenticator (CDP WebAuthn), sign-in with each, refusals counted, recovery codes,
 * the policy's enrolment, step-up on a reveal and an approval, and an admin's reset.
 */
test.describe.configure({ mode: "serial" });

const ORIGIN = E2E_ORIGIN;
const SUPPORT = "mfa-support@e2e.local";
const APPROVER = "mfa-approver@e2e.local";
const FINANCE = "mfa-finance@e2e.local";
const LATE = "mfa-late@e2e.local";
const PERIOD_MS = 30_000;

const state: { secret?: string; lastStep?: number; recoveryCodes?: string[] } = {};

test.beforeAll(async () => {
  await addStaff(SUPPORT, "Sam Second", ["support"]);
  await addStaff(APPROVER, "Pat Passkey", ["approver"]);
  await addStaff(FINANCE, "Fin Enrol", ["finance"]);
  await namePayoutDetails();
  await addStaff(LATE, "Lee Late", ["viewer"]);
});

function totp(secret: string) {
  return new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** A code the app has not seen yet, as an authenticator shows it (waits for the next step if it must). */
async function freshCode(): Promise<string> {
  for (;;) {
    const current = Math.floor(Date.now() / PERIOD_MS);
    // The app accepts one step of drift: the next step's code is good now, if it is later than the last used.
    const step = state.lastStep === undefined || current > state.lastStep ? current : current + 1;
    if (step > (state.lastStep ?? -1) && step <= current + 1) {
      state.lastStep = step;
      return totp(state.secret!).generate({ timestamp: step * PERIOD_MS + 1000 });
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * PERIOD_MS - Date.now() + 200));
  }
}

async function failures(email: string, reason: string): Promise<number> {
  return withDb(async (db) => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM "AuditEvent" WHERE "actorEmail" = $1 AND action = 'auth.second_factor_failed' AND details->>'reason' = $2`,
      [email, reason],
    );
    return rows[0].n as number;
  });
}

/** Makes the person's last proof older than the step-up window, as time would. */
async function ageProof(email: string) {
  await withDb((db) =>
    db.query(
      `UPDATE "StaffSession" SET "reauthAt" = now() - interval '2 hours'
       WHERE "endedAt" IS NULL AND "staffId" = (SELECT id FROM "Staff" WHERE email = $1)`,
      [email],
    ),
  );
}

async function signOut(page: Page) {
  await page.getByTestId("current-staff").locator("..").getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/signin/);
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

test("an authenticator app is enrolled from its key; sign-in then asks for a code, refusing a wrong or reused one", async ({
  page,
}) => {
  await signIn(page, SUPPORT);
  await expect(page.getByTestId("current-staff")).toContainText(SUPPORT);
  await page.goto("/account/security");
  await expect(page.getByTestId("no-second-factor")).toBeVisible();
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const key = (await page.getByTestId("totp-key").textContent())!.replace(/\s/g, "");
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  state.secret = key;
  await page.getByLabel("Code from the app").fill(await freshCode());
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  state.recoveryCodes = await page.getByTestId("recovery-code").allTextContents();
  await page.getByRole("button", { name: /I have saved them/ }).click();
  await expect(page.getByTestId("my-factors")).toContainText("Authenticator app");
  // The key is shown once: nothing of it is on the page any more.
  expect(await page.content()).not.toContain(key);

  await signOut(page);
  await signIn(page, SUPPORT);
  await page.waitForURL(/\/signin\/verify/);
  const wrongBefore = await failures(SUPPORT, "wrong");
  await page.getByLabel(/Authenticator app code/).fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(/That code is not accepted/)).toBeVisible();
  expect(await failures(SUPPORT, "wrong")).toBe(wrongBefore + 1);
  // Nothing else is reachable before the second step.
  expect((await page.request.get("/api/orders")).status()).toBe(403);
  expect((await (await page.request.get("/api/orders")).json()).code).toBe("second_factor_required");

  const code = await freshCode();
  await page.getByLabel(/Authenticator app code/).fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("current-staff")).toContainText(SUPPORT);

  await signOut(page);
  await signIn(page, SUPPORT);
  await page.waitForURL(/\/signin\/verify/);
  const reusedBefore = await failures(SUPPORT, "reused");
  await page.getByLabel(/Authenticator app code/).fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(/That code is not accepted/)).toBeVisible();
  expect(await failures(SUPPORT, "reused")).toBe(reusedBefore + 1);
});

test("an authenticator app confirmed after the step-up window asks for the password first", async ({ page }) => {
  await signIn(page, LATE);
  await expect(page.getByTestId("current-staff")).toContainText(LATE);
  await page.goto("/account/security");
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const key = (await page.getByTestId("totp-key").textContent())!.replace(/\s/g, "");
  await ageProof(LATE);
  await page.getByLabel("Code from the app").fill(totp(key).generate());
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  const dialog = page.getByTestId("step-up-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Your password").fill(DEMO_PASSWORD);
  await dialog.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
});

test("a recovery code signs in once", async ({ page }) => {
  const recovery = state.recoveryCodes![0]!;
  await signIn(page, SUPPORT);
  await page.waitForURL(/\/signin\/verify/);
  await page.getByLabel(/Authenticator app code/).fill(recovery);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("current-staff")).toContainText(SUPPORT);
  await page.goto("/account/security");
  await expect(page.getByTestId("recovery-codes-left")).toContainText("9 unused recovery codes");

  await signOut(page);
  await signIn(page, SUPPORT);
  await page.waitForURL(/\/signin\/verify/);
  await page.getByLabel(/Authenticator app code/).fill(recovery);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(/That code is not accepted/)).toBeVisible();
  await expect(page).toHaveURL(/\/signin\/verify/);
});

test("a passkey is enrolled on Chromium's virtual authenticator and signs in", async ({ page }) => {
  await addVirtualAuthenticator(page);
  await signIn(page, APPROVER);
  await expect(page.getByTestId("current-staff")).toContainText(APPROVER);
  await page.goto("/account/security");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  await page.getByRole("button", { name: /I have saved them/ }).click();
  await expect(page.getByTestId("my-factors")).toContainText("Passkey");

  await signOut(page);
  await signIn(page, APPROVER);
  await page.waitForURL(/\/signin\/verify/);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.getByTestId("current-staff")).toContainText(APPROVER);
});

test("an approval asks for the passkey again once the last proof is older than the step-up window", async ({ browser }) => {
  const finance = await newPage(browser);
  await signInAs(finance, "finance");
  await finance.goto("/withdrawals");
  const reason = `Second-factor step-up ${Date.now()}`;
  const form = finance.getByRole("form", { name: "Request a withdrawal" });
  await form.getByLabel("Currency").selectOption("USD");
  await form.getByLabel("Amount").fill("21.37");
  await form.getByLabel("Reason").fill(reason);
  await form.getByRole("button", { name: "Get quote" }).click();
  await expect(form.getByTestId("withdrawal-quote")).toBeVisible();
  await form.getByRole("button", { name: "Submit for approval" }).click();
  await expect(form.getByTestId("withdrawal-submitted")).toBeVisible();

  const approver = await newPage(browser);
  await addVirtualAuthenticator(approver);
  // The passkey lives in the first test's authenticator: this one enrols its own through Sign-in security.
  await withDb((db) =>
    db.query(`DELETE FROM "SecondFactor" WHERE "staffId" = (SELECT id FROM "Staff" WHERE email = $1)`, [APPROVER]),
  );
  await signIn(approver, APPROVER);
  await expect(approver.getByTestId("current-staff")).toContainText(APPROVER);
  await approver.goto("/account/security");
  await approver.getByRole("button", { name: "Add a passkey" }).click();
  await approver.getByRole("button", { name: /I have saved them/ }).click();
  await expect(approver.getByTestId("my-factors")).toContainText("Passkey");

  await ageProof(APPROVER);
  await approver.goto("/withdrawals");
  const card = approver.getByTestId("withdrawal").filter({ hasText: reason }).first();
  await card.getByRole("button", { name: "Approve…" }).click();
  await card.getByRole("button", { name: "Approve and send" }).click();
  const dialog = approver.getByTestId("step-up-dialog");
  await expect(dialog).toBeVisible();
  // It says what is being confirmed, with the amount and where it goes.
  await expect(dialog.getByTestId("step-up-confirming")).toContainText(`Approve the withdrawal of $21.37 to ${E2E_PAYOUT_NAME}`);
  await dialog.getByRole("button", { name: "Use a passkey" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByTestId("withdrawal-state")).toHaveText("Requested upstream");
});

test("a reveal asks for the authenticator code again once the last proof is older than the step-up window", async ({
  browser,
}) => {
  const buyer = await newPage(browser);
  await signInAs(buyer, "buyer");
  const product = await findProduct((p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0);
  const placed = await buyer.request.post("/api/orders", {
    headers: { origin: ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: `e2e-mfa-reveal-${Date.now()}`,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
    },
  });
  expect(placed.ok()).toBe(true);
  const orderId = ((await placed.json()) as { order: { id: string } }).order.id;
  await expect
    .poll(async () => JSON.stringify(await (await buyer.request.get(`/api/orders/${orderId}`)).json()), { timeout: 20_000 })
    .toContain('"fulfilled"');

  const support = await newPage(browser);
  await signIn(support, SUPPORT);
  await support.waitForURL(/\/signin\/verify/);
  await support.getByLabel(/Authenticator app code/).fill(state.recoveryCodes![1]!);
  await support.getByRole("button", { name: "Verify" }).click();
  await expect(support.getByTestId("current-staff")).toContainText(SUPPORT);

  await ageProof(SUPPORT);
  await support.goto(`/orders/${orderId}`);
  await support.getByRole("button", { name: "Reveal codes" }).click();
  const form = support.getByRole("form", { name: "Reveal codes" });
  await expect(form.getByLabel("Your password")).toHaveCount(0);
  await form.getByLabel("Ticket reference").fill("MFA-1");
  await form.getByLabel("Reason").fill("customer lost the email");
  await form.getByRole("button", { name: "Reveal" }).click();
  const dialog = support.getByTestId("step-up-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/Authenticator app code/).fill(await freshCode());
  await dialog.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(support.getByTestId("revealed-codes")).toBeVisible();
});

test("with the policy on, a required role without a second factor can do nothing but enrol", async ({ browser }) => {
  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  const on = await admin.request.put("/api/settings/second-factor-policy", {
    headers: { origin: ORIGIN },
    data: { roles: ["finance"] },
  });
  expect(on.ok()).toBe(true);
  try {
    const page = await newPage(browser);
    await signIn(page, FINANCE);
    await page.waitForURL(/\/signin\/enrol/);
    await page.goto("/wallet");
    await expect(page).toHaveURL(/\/signin\/enrol/);
    const refused = await page.request.get("/api/wallet");
    expect(refused.status()).toBe(403);
    expect((await refused.json()).code).toBe("second_factor_enrolment_required");

    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const key = (await page.getByTestId("totp-key").textContent())!.replace(/\s/g, "");
    await page.getByLabel("Code from the app").fill(totp(key).generate());
    await page.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(page.getByTestId("recovery-code")).toHaveCount(10);
    await page.getByRole("button", { name: /I have saved them/ }).click();
    await expect(page.getByTestId("current-staff")).toContainText(FINANCE);
    expect((await page.request.get("/api/wallet")).status()).toBe(200);
  } finally {
    const off = await admin.request.put("/api/settings/second-factor-policy", {
      headers: { origin: ORIGIN },
      data: { roles: [] },
    });
    expect(off.ok()).toBe(true);
  }
});

test("an admin resets a person's second factor: their sessions end, and Staff shows they have none", async ({ browser }) => {
  const person = await newPage(browser);
  await signIn(person, SUPPORT);
  await person.waitForURL(/\/signin\/verify/);
  await person.getByLabel(/Authenticator app code/).fill(state.recoveryCodes![2]!);
  await person.getByRole("button", { name: "Verify" }).click();
  await expect(person.getByTestId("current-staff")).toContainText(SUPPORT);

  const admin = await newPage(browser);
  await signInAs(admin, "admin");
  await admin.goto("/staff");
  const row = admin.getByTestId(`staff-row-${SUPPORT}`);
  await expect(row.getByTestId("staff-second-factor")).toHaveText("Authenticator app");
  await row.getByRole("button", { name: "Manage" }).click();
  await admin.getByRole("button", { name: "Reset second factor" }).click();
  await admin.getByTestId("staff-confirm").getByRole("button", { name: "Reset second factor" }).click();
  await expect(admin.getByText("Second factor reset. Their sessions have ended.")).toBeVisible();
  await expect(row.getByTestId("staff-second-factor")).toHaveText("None");

  await person.goto("/orders");
  await expect(person).toHaveURL(/\/signin/);
  // Without a factor (and the policy off in local mode) the password alone signs in again.
  await signIn(person, SUPPORT);
  await expect(person.getByTestId("current-staff")).toContainText(SUPPORT);
});
