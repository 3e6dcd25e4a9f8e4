import { expect, test, type Browser, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E_ORIGIN } from "../../playwright.config";
import { expectNoAxeViolations } from "./axe";
import { addStaff, signIn, signInAs, withDb } from "./helpers";

/**
 * Enrolling an authenticator app on the phone that runs it (issue 50, 3.8), at 390×844 with
 * touch: the page offers an otpauth: link and a copy button (a phone cannot scan its own
 * screen), keeps each group of the key whole, and lets the factor be named and renamed. After
 * an admin resets the person's factors, the sign-in page says why their session ended.
 */
test.describe.configure({ mode: "serial" });

const PERSON = "enrol-phone@e2e.local";
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

test.beforeAll(async () => {
  await addStaff(PERSON, "Petra Phone", ["support"]);
  // A run before this one may have left factors: each run enrols from none.
  await withDb((db) =>
    db.query(`DELETE FROM "SecondFactor" WHERE "staffId" = (SELECT id FROM "Staff" WHERE email = $1)`, [PERSON]),
  );
});

async function onPhone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ ...PHONE, baseURL: E2E_ORIGIN });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_ORIGIN });
  return context.newPage();
}

const codeFor = (secret: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();

/** The person's phone, signed in by the first test and used by the next ones (serial). */
let person: Page | undefined;

test("on a phone: open in the app, copy the key, groups kept whole, and the app named at enrolment", async ({ browser }) => {
  const page = (person = await onPhone(browser));
  await signIn(page, PERSON);
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"), { timeout: 30_000 });
  await page.goto("/account/security");
  const setUp = page.getByRole("form", { name: "Set up an authenticator app" });
  await setUp.getByLabel("Name (optional)").fill("Work phone");
  await setUp.getByRole("button", { name: "Set up an authenticator app" }).tap();

  const key = page.getByTestId("totp-key");
  const secret = (await key.textContent())!.replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // The link a phone's authenticator app opens, for this account and this key.
  const open = page.getByRole("link", { name: "Open in authenticator app" });
  const href = (await open.getAttribute("href"))!;
  expect(href).toMatch(/^otpauth:\/\/totp\//);
  expect(new URL(href).searchParams.get("secret")).toBe(secret);
  // Each group of four on one line: a group that wrapped would have two boxes.
  const boxes = await key.locator("span").evaluateAll((spans) => spans.map((s) => s.getClientRects().length));
  expect(boxes.length).toBe(Math.ceil(secret.length / 4));
  expect(boxes.every((n) => n === 1)).toBe(true);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

  await page.getByRole("button", { name: "Copy key" }).tap();
  await expect(page.getByTestId("copy-totp-key-status")).toHaveText("Copied.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expectNoAxeViolations(page, "enrolment at 390 px, key shown");

  // A wrong code: the field says so, and the page still passes axe.
  const confirm = page.getByRole("form", { name: "Confirm the authenticator app" });
  await confirm.getByLabel("Code from the app").fill("000000");
  await confirm.getByRole("button", { name: "Confirm", exact: true }).tap();
  await expect(confirm.getByText(/That code is not right/)).toBeVisible();
  await expectNoAxeViolations(page, "enrolment at 390 px, a wrong code");

  await confirm.getByLabel("Code from the app").fill(codeFor(secret));
  await confirm.getByRole("button", { name: "Confirm", exact: true }).tap();
  await page.getByRole("button", { name: /I have saved them/ }).tap();
  const factor = page.getByTestId("my-factor");
  await expect(factor.getByTestId("factor-name")).toHaveText("Work phone");
  await expect(factor).toContainText("· Authenticator app ·");
});

test("a factor is renamed, an empty name is refused beside the field, and the rename is audited", async () => {
  const page = person!;
  await page.getByRole("button", { name: "Rename Work phone" }).tap();
  const form = page.getByRole("form", { name: "Rename Work phone" });
  await form.getByLabel("New name for “Work phone”").fill("   ");
  await form.getByRole("button", { name: "Save name" }).tap();
  await expect(form.getByText("Name it, e.g. “Phone” or “Laptop”.")).toBeVisible();
  await expectNoAxeViolations(page, "renaming at 390 px, an empty name");

  await form.getByLabel("New name for “Work phone”").fill("Personal phone");
  await form.getByRole("button", { name: "Save name" }).tap();
  await expect(page.getByTestId("my-factor").getByTestId("factor-name")).toHaveText("Personal phone");
  const audited = await withDb(async (db) => {
    const { rows } = await db.query(
      `SELECT details FROM "AuditEvent" WHERE "actorEmail" = $1 AND action = 'second_factor.rename' ORDER BY at DESC LIMIT 1`,
      [PERSON],
    );
    return rows[0]?.details as unknown;
  });
  expect(audited).toEqual({ kind: "totp", from: "Work phone", to: "Personal phone" });
});

test("after an admin resets their second factor, the person is told why their session ended", async ({ browser }) => {
  const admin = await browser.newPage();
  await signInAs(admin, "admin");
  await admin.goto("/staff");
  const row = admin.getByTestId(`staff-row-${PERSON}`);
  await row.getByRole("button", { name: "Manage" }).click();
  await admin.getByRole("button", { name: "Reset second factor" }).click();
  await admin.getByTestId("staff-confirm").getByRole("button", { name: "Reset second factor" }).click();
  await expect(admin.getByText("Second factor reset. Their sessions have ended.")).toBeVisible();

  const page = person!;
  await page.goto("/account/security");
  await expect(page).toHaveURL(/\/signin\?expired=1/);
  await expect(page.getByTestId("session-ended")).toHaveText(
    "An admin reset your second factor, which ended your sessions. Sign in again; if your role requires a second factor, you will set up a new one.",
  );
  await expectNoAxeViolations(page, "sign-in at 390 px, after a reset");
});
