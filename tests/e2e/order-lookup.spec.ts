import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, E2E_API_KEY, E2E_ORIGIN, E2E_SANDBOX_PORT } from "../../playwright.config";
import { signInAs, withDb } from "./helpers";
import { findProduct, sandboxApi, sandboxControl } from "./sandbox";

// Orders placed by a storefront straight at the upstream, with no webhook endpoint registered
// (the app's registration is removed for this test and put back after): support opens one by
// its id and reveals its codes, and finds another by its exact client reference.

type Endpoint = { id: string; url: string; secret: string; eventTypes: string[] | null; workspace: string };

async function placeDirectly(clientReference: string): Promise<string> {
  const product = await findProduct((p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0);
  const res = await fetch(`http://127.0.0.1:${E2E_SANDBOX_PORT}/api/v1/orders`, {
    method: "POST",
    headers: { "X-Api-Key": E2E_API_KEY, "Idempotency-Key": crypto.randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({
      clientReference,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
    }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

const inMirror = (id: string) =>
  withDb(async (c) => Number((await c.query(`SELECT count(*) AS n FROM "Order" WHERE "id" = $1`, [id])).rows[0].n));

test("support opens and reveals an order placed directly at the upstream, with no webhook endpoint registered", async ({
  page,
}) => {
  const endpoints = ((await sandboxControl("GET", "/webhook-endpoints")) as { items: Endpoint[] }).items.filter(
    (e) => e.workspace === "ws_default",
  );
  for (const endpoint of endpoints) await sandboxControl("DELETE", `/webhook-endpoints/${endpoint.id}`);
  try {
    const stamp = Date.now();
    const orderId = await placeDirectly(`storefront-${stamp}`);
    await expect
      .poll(async () => (await sandboxApi<{ status: string }>(`/orders/${orderId}`)).status, { timeout: 20_000 })
      .toBe("fulfilled");
    expect(await inMirror(orderId)).toBe(0);

    await signInAs(page, "support");
    // One request: the page itself asks the upstream for the id the mirror lacks.
    const response = await page.goto(`/orders/${orderId}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId("order-client-reference")).toHaveText(`storefront-${stamp}`);
    await expect(page.getByTestId("order-placed-by")).toContainText("Through the API elsewhere");
    await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "fulfilled");

    await page.getByRole("button", { name: "Reveal codes" }).click();
    const form = page.getByRole("form", { name: "Reveal codes" });
    await form.getByLabel("Ticket reference").fill("SUP-1212");
    await form.getByLabel("Reason").fill("Storefront customer says the code never arrived");
    await form.getByLabel("Your password").fill(DEMO_PASSWORD);
    await form.getByRole("button", { name: "Reveal" }).click();
    const codes = page.getByTestId("revealed-codes");
    await expect(codes).toBeVisible();
    await codes.getByRole("button", { name: "Show" }).first().click();
    await expect(codes.locator("[data-testid=artifact-value]:not(:has-text('••••'))").first()).toBeVisible();
    await page.getByRole("button", { name: "Close now" }).click();
    await expect(page.getByTestId("reveal-history")).toContainText("SUP-1212");

    // A customer quotes the storefront's reference instead: the exact reference is asked of the upstream.
    const otherId = await placeDirectly(`storefront-ref-${stamp}`);
    await page.goto("/orders");
    const search = page.getByLabel("Order id, client reference or product");
    await search.fill(`storefront-ref-${stamp}`);
    await search.press("Enter");
    const row = page.getByTestId("orders-table").locator(`tr[data-order-id="${otherId}"]`);
    await expect(row).toBeVisible();
    await expect(row.getByTestId("order-origin")).toHaveText("API elsewhere");
    // An older link's reference filter still finds it.
    await page.goto(`/orders?reference=storefront-ref-${stamp}`);
    await expect(row).toBeVisible();

    // Or the order id, pasted into the same box: asked of the upstream, straight to the order.
    const thirdId = await placeDirectly(`storefront-id-${stamp}`);
    expect(await inMirror(thirdId)).toBe(0);
    await page.goto("/orders");
    await search.fill(thirdId);
    await search.press("Enter");
    await expect(page).toHaveURL(`${E2E_ORIGIN}/orders/${thirdId}`);
    await expect(page.getByTestId("order-client-reference")).toHaveText(`storefront-id-${stamp}`);

    // An id nobody knows.
    await page.goto("/orders/ord_nosuchorder0000");
    await expect(page.getByTestId("order-not-found")).toContainText("no such order in this workspace");
  } finally {
    for (const endpoint of endpoints) {
      await sandboxControl("POST", "/webhook-endpoints", {
        url: endpoint.url,
        secret: endpoint.secret,
        ...(endpoint.eventTypes ? { eventTypes: endpoint.eventTypes } : {}),
      });
    }
  }
});

test("an admin follows the history import on Settings and can read every order again", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/settings");
  const panel = page.getByTestId("order-import");
  // The e2e workspace is small: the import that started with the app is long done.
  await expect(panel).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  await expect(page.getByTestId("order-import-state")).toHaveText("Up to date");
  const before = Number(await page.getByTestId("order-import-count").textContent());

  await page.getByTestId("order-import-restart").click();
  // Restarted from the newest order; the panel follows it to the end again.
  await expect(page.getByTestId("order-import-state")).toHaveText("Importing");
  await expect(panel).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  await expect
    .poll(async () => Number(await page.getByTestId("order-import-count").textContent()))
    .toBeGreaterThanOrEqual(before);
  await page.goto("/audit");
  await expect(page.getByTestId("audit-table").getByText("Restarted the order import").first()).toBeVisible();
});
