import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DEMO_PASSWORD, E2E_DATA_DIR, E2E_ORIGIN, E2E_SERVER_LOG } from "../../playwright.config";
import { signInAs } from "./helpers";
import { findProduct } from "./sandbox";

const ORIGIN = E2E_ORIGIN;

async function fulfilledOrder(request: APIRequestContext): Promise<string> {
  const product = await findProduct((p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0);
  const res = await request.post("/api/orders", {
    headers: { origin: ORIGIN },
    data: {
      idempotencyKey: crypto.randomUUID(),
      clientReference: `e2e-reveal-${Date.now()}`,
      item: { productId: product.id, variantId: product.variants[0]!.id, quantity: 2, currency: product.currency },
    },
  });
  expect(res.ok()).toBe(true);
  const id = ((await res.json()) as { order: { id: string } }).order.id;
  await expect
    .poll(async () => JSON.stringify(await (await request.get(`/api/orders/${id}`)).json()), { timeout: 20_000 })
    .toContain('"fulfilled"');
  return id;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

async function newPage(page: Page) {
  return page
    .context()
    .browser()!
    .newContext()
    .then((c) => c.newPage());
}

test("support reveals codes with a reason and a password; the codes appear nowhere else", async ({ page }) => {
  await signInAs(page, "buyer");
  const orderId = await fulfilledOrder(page.request);

  const support = await newPage(page);
  const bodies: { url: string; body: Buffer; cacheControl?: string }[] = [];
  support.on("response", async (res) =>
    bodies.push({
      url: res.url(),
      body: await res.body().catch(() => Buffer.alloc(0)),
      cacheControl: res.headers()["cache-control"],
    }),
  );
  await signInAs(support, "support");
  await support.goto(`/orders/${orderId}`);
  await support.getByRole("button", { name: "Reveal codes" }).click();
  const form = support.getByRole("form", { name: "Reveal codes" });
  await form.getByRole("button", { name: "Reveal" }).click();
  await expect(form.getByTestId("error-ticket")).toBeVisible();
  await form.getByLabel("Ticket reference").fill("SUP-4242");
  await form.getByLabel("Reason").fill("Customer reports the email never arrived");
  await form.getByLabel("Your password").fill(DEMO_PASSWORD);
  await form.getByRole("button", { name: "Reveal" }).click();

  const codes = support.getByTestId("revealed-codes");
  await expect(codes).toBeVisible();
  // The history below shows this reveal at once, and each artifact says which unit and kind it is.
  await expect(support.getByTestId("reveal-history")).toContainText("SUP-4242");
  await expect(codes.getByTestId("artifact-label").first()).toContainText(/^Unit 1 of 2 · code/);
  await expect(codes.getByTestId("artifact-value").first()).toHaveText("••••••••••••");
  const count = await codes.getByTestId("artifact-value").count();
  const values: string[] = [];
  for (let i = 0; i < count; i++) {
    await codes.getByRole("button", { name: "Show" }).nth(0).click();
    const value = (await codes.locator("[data-testid=artifact-value]:not(:has-text('••••'))").first().textContent())!;
    values.push(value);
    await codes.getByRole("button", { name: "Hide" }).click();
  }
  expect(values.length).toBeGreaterThan(0);

  const isReveal = (b: { url: string }) => b.url.endsWith(`/api/orders/${orderId}/reveal`);
  const revealResponse = bodies.find((b) => isReveal(b) && b.body.includes('"artifacts"'));
  expect(revealResponse?.cacheControl).toContain("no-store");

  await support.getByRole("button", { name: "Close now" }).click();
  await expect(support.getByTestId("reveal-history")).toContainText("SUP-4242");
  await expect(support.getByTestId("reveal-outcome").first()).toHaveText("Revealed");

  // Everything else the app sends: order page, lists, APIs, the audit log and its export.
  const admin = await newPage(page);
  await signInAs(admin, "admin");
  const seen: { url: string; body: Buffer }[] = [];
  for (const url of [
    `/orders/${orderId}`,
    "/orders",
    `/api/orders/${orderId}`,
    "/api/orders",
    "/audit",
    "/api/audit",
    "/api/audit/export",
    "/events",
  ]) {
    seen.push({ url, body: await (await admin.request.get(url)).body() });
  }
  for (const other of bodies.filter((b) => !isReveal(b))) seen.push(other);
  const logs = await readFile(E2E_SERVER_LOG).catch(() => Buffer.alloc(0));
  const dbFiles = await filesUnder(`${E2E_DATA_DIR}/pglite`);
  expect(dbFiles.length).toBeGreaterThan(0);
  for (const value of values) {
    for (const { url, body } of seen) expect(body.includes(value), `${url} contains ${value}`).toBe(false);
    expect(logs.includes(value), "server log").toBe(false);
    for (const file of dbFiles) expect((await readFile(file)).includes(value), file).toBe(false);
  }
});

test("buyers and viewers cannot reveal: no button, and 403 on a forged request", async ({ page }) => {
  await signInAs(page, "buyer");
  const orderId = await fulfilledOrder(page.request);
  for (const role of ["buyer", "viewer"] as const) {
    const other = await newPage(page);
    await signInAs(other, role);
    await other.goto(`/orders/${orderId}`);
    await expect(other.getByRole("heading", { name: "Codes" })).toBeVisible();
    await expect(other.getByRole("button", { name: "Reveal codes" })).toHaveCount(0);
    const forged = await other.request.post(`/api/orders/${orderId}/reveal`, {
      headers: { origin: ORIGIN },
      data: { idempotencyKey: crypto.randomUUID(), ticket: "X-1", reason: "forged request", password: DEMO_PASSWORD },
    });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).not.toContain("artifacts");
  }
});
