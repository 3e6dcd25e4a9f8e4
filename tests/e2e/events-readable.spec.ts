import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { E2E_API_KEY, E2E_SANDBOX_PORT } from "../../playwright.config";
import { signInAs, withDb } from "./helpers";
import { findProduct } from "./sandbox";

// Issue 14, item 8: events say what they are about and can be opened; audit targets are whole and lead somewhere; sign-ins can be hidden.

test("an order's events name the order and link to it, and each event's payload opens in place", async ({ page }) => {
  const product = await findProduct((p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0);
  const reference = `e2e-readable-${Date.now()}`;
  const res = await fetch(`http://127.0.0.1:${E2E_SANDBOX_PORT}/api/v1/orders`, {
    method: "POST",
    headers: { "X-Api-Key": E2E_API_KEY, "Idempotency-Key": crypto.randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({
      clientReference: reference,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
    }),
  });
  expect(res.status).toBe(202);
  const orderId = ((await res.json()) as { id: string }).id;

  await signInAs(page, "admin");
  const row = page.locator("tr[data-event-id]", { has: page.getByTestId("event-subject").getByText(reference) }).first();
  await expect(async () => {
    await page.goto("/events?kind=order.*");
    await expect(row).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  const subject = row.getByTestId("event-subject").getByRole("link");
  await expect(subject).toHaveText(`${reference} (${orderId})`);
  await expect(subject).toHaveAttribute("href", `/orders/${orderId}`);
  await expect(page.getByTestId("events-total")).toContainText(/match(es)? these filters/);

  await expect(row.getByTestId("event-payload")).toBeHidden();
  await row.locator("summary").first().click();
  await expect(row.getByTestId("event-payload")).toContainText(`"orderId": "${orderId}"`);
});

test("an event that needs a person shows its amount and a Reprocess action, whose audit row links back in full", async ({
  page,
}) => {
  // An unknown kind cannot come from the sandbox: it is arranged in the inbox directly.
  const eventId = randomBytes(16).toString("hex");
  await withDb((client) =>
    client.query(
      `INSERT INTO "WebhookEvent" ("id", "type", "payload", "state", "attempts", "lastError") VALUES ($1, 'wallet.adjusted', $2, 'unknown_kind', 1, 'No handler for this kind.')`,
      [eventId, JSON.stringify({ id: eventId, type: "wallet.adjusted", data: { amount: "12.34", currency: "USD" } })],
    ),
  );

  await signInAs(page, "admin");
  await page.goto("/events?state=processed");
  // No row there can be reprocessed, so there is no empty actions column.
  await expect(page.getByTestId("events-table").locator("thead")).not.toContainText("Actions");

  await page.goto("/events?state=unknown_kind");
  const row = page.locator(`tr[data-event-id="${eventId}"]`);
  await expect(row.getByTestId("event-subject")).toHaveText("12.34 USD");
  await expect(page.getByTestId("events-table").locator("thead")).toContainText("Actions");
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/api/events/${eventId}/reprocess`)),
    row.getByTestId(`reprocess-${eventId}`).click(),
  ]);
  expect(answer.ok()).toBe(true);

  await page.goto("/audit?action=webhook.reprocess");
  const entry = page.locator('tr[data-action="webhook.reprocess"]', { hasText: eventId });
  await expect(entry.getByTestId("audit-target")).toContainText(eventId);
  await expect(entry.getByTestId("audit-target").getByRole("link")).toHaveAttribute("href", "/events");
});

test("sign-ins can be hidden from the audit log, and the count says how many entries match", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/audit");
  const signIns = page.locator('[data-testid=audit-table] tr[data-action="auth.sign_in"]');
  await expect(signIns.first()).toBeVisible();
  await expect(page.getByTestId("audit-total")).toContainText(/^[\d,]+\+? entr(y|ies)/);

  await page.getByLabel("Hide sign-ins").check();
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/signIns=hide/);
  await expect(page.getByLabel("Hide sign-ins")).toBeChecked();
  await expect(signIns).toHaveCount(0);
  await expect(page.locator('[data-testid=audit-table] tr[data-action="auth.sign_out"]')).toHaveCount(0);
  await expect(page.getByTestId("audit-total")).toContainText(/match(es)? these filters/);
});
