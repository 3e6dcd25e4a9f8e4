import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { addStaff, signInAs } from "./helpers";
import { findProduct, upstreamOrdersWithReference, type SandboxProduct } from "./sandbox";

// A session that ends while a buyer is filling in an order: the next call answers 401, the
// page goes to sign-in, and signing in again brings them back to the form as they left it.

async function signInHere(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Picks a face value other than the one the form starts with, whether the form offers a list or a number field. */
async function chooseValue(page: Page, product: SandboxProduct): Promise<string> {
  const value = page.getByLabel(/^Face value/);
  if ((await value.evaluate((el) => el.tagName)) === "SELECT") {
    const second = await value.locator("option").nth(1).getAttribute("value");
    await value.selectOption(second!);
    return second!;
  }
  const chosen = String(product.minimumValue! + product.valueStep!);
  await value.fill(chosen);
  return chosen;
}

test("a buyer whose session ends mid-order signs in again and finds the value, quantity and reference as typed", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  // A small value, so that three of them stay under the second confirmation (500.00 by default).
  const product = await findProduct(
    (p) =>
      p.isAvailable &&
      p.currency === "USD" &&
      p.variants.length === 0 &&
      p.type !== "phone-top-up" &&
      p.minimumValue !== null &&
      p.minimumValue + (p.valueStep ?? 0) <= 100,
  );
  const productPath = `/catalog/${encodeURIComponent(product.id)}`;
  await signInAs(page, "buyer");
  await page.goto(productPath);
  const value = await chooseValue(page, product);
  await page.getByLabel("Quantity").fill("3");
  const reference = `e2e-draft-${randomUUID().slice(0, 8)}`;
  await page.getByLabel("Client reference").fill(reference);

  // The session ends (the cookie is gone); the next step the buyer takes finds out.
  await context.clearCookies();
  await page.getByRole("button", { name: "Get quote" }).click();
  await expect(page).toHaveURL(/\/signin\?expired=1&callbackUrl=/);
  await expect(page.getByText("Your session has ended. Sign in again to continue.")).toBeVisible();
  await signInHere(page, "buyer@demo.local");

  await expect(page).toHaveURL(`${E2E_ORIGIN}${productPath}`);
  await expect(page.getByLabel(/^Face value/)).toHaveValue(value);
  await expect(page.getByLabel("Quantity")).toHaveValue("3");
  await expect(page.getByLabel("Client reference")).toHaveValue(reference);
  await expect(page.getByTestId("order-draft-restored")).toBeVisible();

  // Someone else signing in on this tab does not get it.
  const other = "draft-buyer@demo.local";
  await addStaff(other, "Draft Buyer", ["buyer"]);
  await context.clearCookies();
  await page.goto("/signin");
  await signInHere(page, other);
  await expect(page.getByTestId("current-staff")).toContainText(other);
  await page.goto(productPath);
  await expect(page.getByLabel("Client reference")).not.toHaveValue(reference);
  await expect(page.getByLabel("Quantity")).toHaveValue("1");
  await expect(page.getByTestId("order-draft-restored")).toHaveCount(0);

  // Back as the buyer: placing the order uses what was typed, and leaves no draft behind.
  await context.clearCookies();
  await signInAs(page, "buyer");
  await page.goto(productPath);
  await expect(page.getByLabel("Client reference")).toHaveValue(reference);
  await page.getByRole("button", { name: "Get quote" }).click();
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/orders\/[^/]+$/, { timeout: 20_000 });
  expect(await upstreamOrdersWithReference(reference)).toHaveLength(1);
  await page.goto(productPath);
  await expect(page.getByLabel("Quantity")).toHaveValue("1");
  await expect(page.getByLabel("Client reference")).not.toHaveValue(reference);
  await expect(page.getByTestId("order-draft-restored")).toHaveCount(0);
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith("order-draft:")))).toEqual([]);
});
