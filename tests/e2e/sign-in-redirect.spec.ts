import { expect, test, type Page } from "@playwright/test";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { signIn } from "./helpers";

/**
 * callbackUrl tricks, as raw query strings (what an attacker puts in a link). Each must end
 * on a page of this app, for a signed-in person (redirected away from /signin at once) and
 * for a signed-out one after signing in.
 */
const TRICKS: Record<string, string> = {
  "a tab between the slashes": "%2F%09%2Fevil.example%2Fx",
  "a line feed between the slashes": "%2F%0A%2Fevil.example%2Fx",
  "a carriage return between the slashes": "%2F%0D%2Fevil.example%2Fx",
  "protocol-relative": "%2F%2Fevil.example%2Fx",
  "protocol-relative, unencoded": "//evil.example/x",
  "slash backslash": "%2F%5Cevil.example%2Fx",
  "two backslashes": "%5C%5Cevil.example%2Fx",
  "another origin": "https%3A%2F%2Fevil.example%2Fx",
  "an encoded slash inside": "/%252F/evil.example/x",
  "a double-encoded protocol-relative": "%252F%252Fevil.example",
  "javascript:": "javascript%3Aalert(document.domain)",
  "credentials in front of another host": `${encodeURIComponent(E2E_ORIGIN)}%40evil.example%2F`,
};

async function submitSignIn(page: Page) {
  await page.getByLabel("Email").fill("viewer@demo.local");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function expectAppHome(page: Page) {
  // The whole URL: this app's origin, its home page.
  await expect(page).toHaveURL(`${E2E_ORIGIN}/`);
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible();
}

test("a signed-in person sent to /signin with a callbackUrl trick stays on the app", async ({ page }) => {
  test.setTimeout(180_000); // a dozen page loads
  await signIn(page, "viewer@demo.local");
  await expectAppHome(page);
  for (const [name, trick] of Object.entries(TRICKS)) {
    const res = await page.goto(`/signin?callbackUrl=${trick}`);
    expect(res?.status(), name).toBeLessThan(400);
    await expectAppHome(page);
  }
  // A path of the app is still honoured.
  await page.goto(`/signin?callbackUrl=${encodeURIComponent("/audit?actor=x")}`);
  await expect(page).toHaveURL(`${E2E_ORIGIN}/audit?actor=x`);
});

test("a signed-out person signing in from a callbackUrl trick lands on the app", async ({ browser }) => {
  test.setTimeout(180_000); // a dozen sign-ins
  for (const [name, trick] of Object.entries(TRICKS)) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`/signin?callbackUrl=${trick}`);
    expect(res?.status(), name).toBe(200);
    await submitSignIn(page);
    await expectAppHome(page);
    await context.close();
  }
});

test("a signed-out visitor is sent back to the page they asked for after signing in", async ({ page }) => {
  await page.goto("/audit?actor=x");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faudit%3Factor%3Dx$/);
  await submitSignIn(page);
  await expect(page).toHaveURL(`${E2E_ORIGIN}/audit?actor=x`);
});

test("a callbackUrl outside ASCII sends a signed-in person to that path of the app, encoded, never an error", async ({
  page,
}) => {
  await signIn(page, "viewer@demo.local");
  await expectAppHome(page);
  for (const [given, location] of [
    ["%2F%E2%80%AE", "/%E2%80%AE"], // a right-to-left override
    ["%2F%E3%80%82%2Fevil.example", "/%E3%80%82/evil.example"], // an ideographic full stop
    ["%2Fcaf%C3%A9", "/caf%C3%A9"], // Latin-1: once sent as a raw byte
  ]) {
    const res = await page.request.get(`/signin?callbackUrl=${given}`, { maxRedirects: 0 });
    expect(res.status(), given).toBe(307);
    expect(res.headers()["location"], given).toBe(location);
  }
});
