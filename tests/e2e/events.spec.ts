import { expect, test } from "@playwright/test";
import { E2E_API_KEY, E2E_SANDBOX_PORT } from "../../playwright.config";
import { signInAs } from "./helpers";
import { findProduct, sandboxControl } from "./sandbox";

type Delivery = {
  eventType: string;
  status: string;
  parkedReason: string | null;
  attemptCount: number;
  payload: { id: string; data: { orderId?: string } };
};

test("an event whose data cannot be stored is refused once upstream and shown to the admin with its body", async ({ page }) => {
  // An order whose reference holds a NUL, placed straight at the upstream: its webhooks carry it.
  const product = await findProduct((p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0);
  const res = await fetch(`http://127.0.0.1:${E2E_SANDBOX_PORT}/api/v1/orders`, {
    method: "POST",
    headers: { "X-Api-Key": E2E_API_KEY, "Idempotency-Key": crypto.randomUUID(), "content-type": "application/json" },
    body: JSON.stringify({
      clientReference: `e2e-nul-\u0000-${Date.now()}`,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency },
    }),
  });
  expect(res.status).toBe(202);
  const orderId = ((await res.json()) as { id: string }).id;

  // The upstream parks it after one attempt (a final 4xx), instead of retrying eight times.
  let parked: Delivery | undefined;
  await expect
    .poll(
      async () => {
        const { items } = (await sandboxControl("GET", "/webhook-deliveries?eventType=order.processing")) as {
          items: Delivery[];
        };
        parked = items.find((d) => d.payload.data.orderId === orderId && d.status === "parked");
        return parked ? `${parked.parkedReason}/${parked.attemptCount}` : "waiting";
      },
      { timeout: 30_000 },
    )
    .toBe("rejected/1");

  await signInAs(page, "admin");
  await page.goto("/events?state=refused");
  const row = page.locator(`tr[data-event-id="${parked!.payload.id.replaceAll("-", "")}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Refused (unstorable)");
  await expect(row).toContainText("clientReference holds a NUL character");
  await row.getByText("Body as received").click();
  await expect(row.getByTestId("refused-body")).toContainText("e2e-nul-\\u0000-");
});
