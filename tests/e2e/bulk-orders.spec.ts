import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { E2E_PORT } from "../../playwright.config";
import { signInAs } from "./helpers";
import { findProduct, sandboxApi, sandboxControl, upstreamOrdersWithReference, type SandboxProduct } from "./sandbox";
import { axeViolations } from "./axe";

const ORIGIN = `http://localhost:${E2E_PORT}`;
const HEADER = "productId,variantId,value,quantity,clientReference,phoneNumber";

/** Real product ids, through the app's own catalog API (as the signed-in person). */
async function catalog(page: Page, query: string): Promise<SandboxProduct[]> {
  const res = await page.request.get(`/api/catalog/products?size=100&${query}`);
  expect(res.status(), `GET /api/catalog/products?${query}`).toBe(200);
  return ((await res.json()) as { items: SandboxProduct[] }).items.filter((p) => p.isAvailable && p.currency === "USD");
}

/** 20 valid rows over gift cards (by variant), value products and phone top-ups, and one row with an error. */
async function bulkCsv(page: Page, batch: string): Promise<{ csv: string; references: string[] }> {
  const allCards = await catalog(page, "category=gift-card");
  const giftCards = allCards.filter((p) => p.variants.length > 0 && p.variants[0]!.price < 40).slice(0, 4);
  const valued = allCards.find((p) => p.minimumValue !== null);
  const topUp = (await catalog(page, "category=top-up"))[0];
  expect(giftCards.length).toBeGreaterThan(0);
  expect(valued && topUp, "the catalog offers value products and top-ups").toBeTruthy();
  const references = Array.from({ length: 20 }, (_, i) => `${batch}-${String(i + 1).padStart(2, "0")}`);
  const rows = references.map((reference, i) => {
    if (i >= 16 && topUp) {
      const choice = topUp.variants.length ? `${topUp.variants[0]!.id},` : `,${topUp.minimumValue}`;
      return `${topUp.id},${choice},1,${reference},+447700900123`;
    }
    if (i >= 13 && valued) return `${valued.id},,${valued.minimumValue},1,${reference},`;
    const card = giftCards[i % giftCards.length]!;
    return `${card.id},${card.variants[0]!.id},,${(i % 2) + 1},${reference},`;
  });
  rows.push(`${giftCards[0]!.id},var_not_a_variant,,1,${batch}-bad,`);
  return { csv: [HEADER, ...rows].join("\r\n") + "\r\n", references };
}

/**
 * How many upstream orders carry each reference, from one read of the newest orders: the
 * test's own calls count against the workspace's 120/min too, so it asks once, not 20 times.
 */
async function upstreamCounts(references: string[]): Promise<number[]> {
  const { items } = await sandboxApi<{ items: { clientReference: string }[] }>("/orders?limit=100");
  return references.map((reference) => items.filter((o) => o.clientReference === reference).length);
}

test.describe("bulk orders", () => {
  test("a buyer uploads a 20-row CSV, sees the preview and its total, confirms once and watches 20 orders placed", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signInAs(page, "buyer");
    const batch = `e2e-bulk-${randomUUID().slice(0, 8)}`;
    const { csv, references } = await bulkCsv(page, batch);

    await page.goto("/orders/bulk");
    await expect(page.getByRole("heading", { level: 1, name: "Bulk orders" })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("CSV file").setInputFiles({ name: `${batch}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and preview" }).click();

    await expect(page).toHaveURL(/\/orders\/bulk\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const bulkUrl = page.url();
    await expect(page.getByTestId("bulk-state")).toHaveAttribute("data-state", "draft");
    await expect(page.getByTestId("bulk-valid-count")).toHaveText("20");
    const total = (await page.getByTestId("bulk-total").textContent())!.trim();
    expect(total).toMatch(/^\$[\d,]+\.\d{2}$/);
    await expect(page.locator('tr[data-row="22"]').getByTestId("row-errors")).toContainText("Not a variant of this product");
    expect(await axeViolations(page)).toEqual([]);
    expect(await upstreamCounts(references)).toEqual(Array(20).fill(0));

    // The wallet after the whole file, as a single large order shows it.
    await expect(page.getByTestId("bulk-available-after-USD")).toHaveText(/^\$[\d,]+\.\d{2} \(now \$[\d,]+\.\d{2}\)$/);
    await expect(page.getByTestId("bulk-funds-short")).toHaveCount(0);

    // One confirmation, the total restated on the button.
    const confirm = page.getByTestId("bulk-confirm");
    await expect(confirm).toHaveText(`Place 20 orders for ${total}`);
    await confirm.click();
    await expect(page.getByTestId("bulk-progress")).toBeVisible();

    // Leave, and come back through the list: the view resumes from the server.
    await page.goto("/orders/bulk");
    await page.getByRole("link", { name: `${batch}.csv` }).click();
    await expect(page).toHaveURL(bulkUrl);
    const progress = page.getByTestId("bulk-progress");
    await expect(progress).toHaveAttribute("aria-valuemax", "20");
    await expect(progress).toHaveAttribute("data-placed", "20", { timeout: 90_000 });
    await expect(page.getByTestId("bulk-progress-text")).toContainText("20 of 20 placed");
    // "Done" once the orders have finished too (fulfilment takes a moment after the last row is sent).
    await expect(page.getByTestId("bulk-state")).toHaveAttribute("data-state", "done", { timeout: 30_000 });
    await expect(page.locator('tr[data-state="placed"]')).toHaveCount(20);
    await expect(page.locator('tr[data-row="2"]').getByRole("link")).toHaveAttribute("href", /^\/orders\/.+/);
    expect(await axeViolations(page)).toEqual([]);

    expect(await upstreamCounts([...references, `${batch}-bad`])).toEqual([...Array(20).fill(1), 0]);

    // Confirming again (a double click, a replayed request) changes nothing.
    const id = bulkUrl.split("/").pop()!;
    const again = await page.request.post(`/api/bulk-orders/${id}/confirm`, { headers: { origin: ORIGIN }, data: {} });
    expect(again.status()).toBe(202);
    expect(((await again.json()) as { state: string }).state).toBe("done");
    expect(await upstreamCounts(references)).toEqual(Array(20).fill(1));
  });

  test("a bulk run whose orders fail upstream reports the failures, lists them as needing attention and offers the results as CSV", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, "buyer");
    const batch = `e2e-bulkfail-${randomUUID().slice(0, 8)}`;
    const card = (await catalog(page, "category=gift-card")).find((p) => p.variants.length > 0 && p.variants[0]!.price < 40)!;
    const references = Array.from({ length: 5 }, (_, i) => `${batch}-${i + 1}`);
    const csv = [HEADER, ...references.map((r) => `${card.id},${card.variants[0]!.id},,1,${r},`)].join("\r\n") + "\r\n";

    // Orders wait for the test to end them: rows 2 and 4 fail upstream, the others are fulfilled.
    await sandboxControl("PUT", "/fulfilment", { mode: "manual" });
    try {
      await page.goto("/orders/bulk");
      await page.getByLabel("CSV file").setInputFiles({ name: `${batch}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByRole("button", { name: "Upload and preview" }).click();
      await expect(page.getByTestId("bulk-valid-count")).toHaveText("5", { timeout: 30_000 });
      await page.getByTestId("bulk-confirm").click();
      await expect(page.getByTestId("bulk-progress")).toHaveAttribute("data-placed", "5", { timeout: 60_000 });
      for (const [i, reference] of references.entries()) {
        const [order] = await upstreamOrdersWithReference(reference);
        await sandboxControl("POST", `/orders/${order!.id}/${i === 1 || i === 3 ? "fail" : "fulfil"}`);
      }
    } finally {
      await sandboxControl("PUT", "/fulfilment", { mode: "auto" });
    }

    await expect(page.getByTestId("bulk-outcome")).toHaveText("3 fulfilled · 2 failed (funds released)", { timeout: 30_000 });
    await expect(page.getByTestId("bulk-headline")).toHaveText("Finished with 2 failures: see the rows needing attention.");
    await page.getByRole("button", { name: "Needing attention (2)" }).click();
    const shown = page.getByTestId("bulk-rows").locator("tbody tr");
    await expect(shown).toHaveCount(2);
    await expect(shown.first()).toHaveAttribute("data-row", "3");
    await expect(shown.last()).toHaveAttribute("data-row", "5");
    await expect(shown.first().getByTestId("row-reason")).toContainText("the reserved funds were released");
    expect(await axeViolations(page)).toEqual([]);

    const download = page.waitForEvent("download");
    await page.getByTestId("bulk-results-csv").click();
    const file = await (await download).path();
    const lines = (await readFile(file, "utf8")).trimEnd().split("\r\n");
    expect(lines[0]).toBe("row,clientReference,orderId,status,reason");
    expect(lines).toHaveLength(6);
    expect(lines[2]).toMatch(
      new RegExp(`^3,${references[1]},[^,]+,failed \\(funds released\\),The Issuing Service could not fulfil`),
    );
    expect(lines[1]).toMatch(new RegExp(`^2,${references[0]},[^,]+,fulfilled,$`));
  });

  test("the preview says a product is unavailable, and of two rows with one client reference skips only the later", async ({
    page,
  }) => {
    await signInAs(page, "buyer");
    const batch = `e2e-bulkcheck-${randomUUID().slice(0, 8)}`;
    const unavailable = await findProduct((p) => !p.isAvailable);
    const card = (await catalog(page, "category=gift-card")).find((p) => p.variants.length > 0)!;
    const csv =
      [
        HEADER,
        `${unavailable.id},,,1,${batch}-gone,`, // no variant: the person could not see one offered
        `${card.id},${card.variants[0]!.id},,1,${batch}-same,`,
        `${card.id},${card.variants[0]!.id},,2,${batch}-same,`,
        `${card.id},${card.variants[0]!.id},,1,${batch}-other,`,
      ].join("\r\n") + "\r\n";
    await page.goto("/orders/bulk");
    await page.getByLabel("CSV file").setInputFiles({ name: `${batch}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and preview" }).click();
    await expect(page).toHaveURL(/\/orders\/bulk\/[0-9a-f-]{36}$/, { timeout: 30_000 });

    const gone = page.locator('tr[data-row="2"]').getByTestId("row-errors");
    await expect(gone).toHaveText("Product: This product is unavailable right now.");
    await expect(gone).not.toContainText("variant");
    await expect(page.locator('tr[data-row="3"]')).toContainText("Ready");
    await expect(page.locator('tr[data-row="4"]').getByTestId("row-errors")).toHaveText(
      "Client reference: Row 3 already uses this client reference; each order needs its own, so this row is skipped.",
    );
    await expect(page.getByTestId("bulk-valid-count")).toHaveText("2");
    await expect(page.getByTestId("bulk-confirm")).toHaveText(/^Place 2 orders for /);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a file whose orders are still processing reads "Orders processing", and "Done" only once they have finished', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, "buyer");
    const batch = `e2e-bulkopen-${randomUUID().slice(0, 8)}`;
    const card = (await catalog(page, "category=gift-card")).find((p) => p.variants.length > 0 && p.variants[0]!.price < 40)!;
    const references = [`${batch}-1`, `${batch}-2`];
    const csv = [HEADER, ...references.map((r) => `${card.id},${card.variants[0]!.id},,1,${r},`)].join("\r\n") + "\r\n";

    // Orders wait for the test to finish them.
    await sandboxControl("PUT", "/fulfilment", { mode: "manual" });
    try {
      await page.goto("/orders/bulk");
      await page.getByLabel("CSV file").setInputFiles({ name: `${batch}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByRole("button", { name: "Upload and preview" }).click();
      await expect(page.getByTestId("bulk-valid-count")).toHaveText("2", { timeout: 30_000 });
      await page.getByTestId("bulk-confirm").click();
      await expect(page.getByTestId("bulk-progress")).toHaveAttribute("data-placed", "2", { timeout: 60_000 });

      // Every row sent, neither order finished: not "Done", here or in the list.
      const state = page.getByTestId("bulk-state");
      await expect(state).toHaveText("Orders processing");
      await expect(state).toHaveAttribute("data-state", "finishing");
      await expect(page.getByTestId("bulk-headline")).toHaveText("Every row was placed; 2 orders still on the way to fulfilled.");
      const bulkUrl = page.url();
      await page.goto("/orders/bulk");
      const listed = page.getByRole("row", { name: new RegExp(`${batch}\\.csv`) });
      await expect(listed.getByTestId("bulk-state")).toHaveText("Orders processing");

      // One finishes: still not done.
      await page.goto(bulkUrl);
      const [first] = await upstreamOrdersWithReference(references[0]!);
      await sandboxControl("POST", `/orders/${first!.id}/fulfil`);
      await expect(page.getByTestId("bulk-outcome")).toHaveText("1 fulfilled · 1 processing", { timeout: 30_000 });
      await expect(state).toHaveText("Orders processing");

      // The other finishes: now it is done, without a reload.
      const [second] = await upstreamOrdersWithReference(references[1]!);
      await sandboxControl("POST", `/orders/${second!.id}/fulfil`);
    } finally {
      await sandboxControl("PUT", "/fulfilment", { mode: "auto" });
    }
    const state = page.getByTestId("bulk-state");
    await expect(state).toHaveText("Done", { timeout: 30_000 });
    await expect(state).toHaveAttribute("data-state", "done");
    await expect(page.getByTestId("bulk-headline")).toHaveText("Finished: every order was fulfilled.");
    await page.goto("/orders/bulk");
    await expect(page.getByRole("row", { name: new RegExp(`${batch}\\.csv`) }).getByTestId("bulk-state")).toHaveText("Done");
  });

  test("discarding a preview asks first; keeping it changes nothing", async ({ page }) => {
    await signInAs(page, "buyer");
    const card = (await catalog(page, "category=gift-card")).find((p) => p.variants.length > 0)!;
    const csv = `${HEADER}\r\n${card.id},${card.variants[0]!.id},,1,e2e-discard-${randomUUID().slice(0, 8)},\r\n`;
    await page.goto("/orders/bulk");
    await page.getByLabel("CSV file").setInputFiles({ name: "discard.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and preview" }).click();
    await expect(page).toHaveURL(/\/orders\/bulk\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(page.getByTestId("bulk-state")).toHaveAttribute("data-state", "draft");
    await page.getByTestId("bulk-discard").click();
    const confirm = page.getByRole("alertdialog", { name: "Discard this preview?" });
    await confirm.getByRole("button", { name: "Keep it" }).click();
    await expect(confirm).toBeHidden();
    await page.reload();
    await expect(page.getByTestId("bulk-state")).toHaveAttribute("data-state", "draft");
    await page.getByTestId("bulk-discard").click();
    await confirm.getByRole("button", { name: "Discard the preview" }).click();
    await expect(page.getByTestId("bulk-headline")).toHaveText("This preview was discarded; nothing was ordered.");
  });

  test("people without the buyer role get 403 from the server even when the request is forged", async ({ page }) => {
    const csv = `${HEADER}\r\nprd_x,var_x,,1,forged-${randomUUID().slice(0, 8)},\r\n`;
    await signInAs(page, "support");
    const upload = await page.request.post("/api/bulk-orders", { headers: { origin: ORIGIN }, data: { csv } });
    expect(upload.status()).toBe(403);
    expect(((await upload.json()) as { code: string }).code).toBe("forbidden");
    const confirm = await page.request.post(`/api/bulk-orders/${randomUUID()}/confirm`, {
      headers: { origin: ORIGIN },
      data: {},
    });
    expect(confirm.status()).toBe(403);
    await page.goto("/orders/bulk");
    await expect(page).toHaveURL(/\/forbidden/);
  });

  test("bad bulk-order input gets 400 problem documents, never 5xx", async ({ page }) => {
    const csv = `${HEADER}\r\nprd_x,var_x,,1,bad-${randomUUID().slice(0, 8)},\r\n`;
    await signInAs(page, "buyer");
    const bodies = [
      "not json",
      JSON.stringify({}),
      JSON.stringify({ csv: "a,b\n1,2" }),
      JSON.stringify({ csv, extra: true }),
      JSON.stringify({ csv: 42 }),
    ];
    for (const data of bodies) {
      const res = await page.request.post("/api/bulk-orders", {
        headers: { origin: ORIGIN, "content-type": "application/json" },
        data,
      });
      expect(res.status(), data).toBe(400);
      expect(res.headers()["content-type"]).toContain("application/problem+json");
    }
    expect((await page.request.get("/api/bulk-orders/not-an-id")).status()).toBe(400);
    expect((await page.request.get(`/api/bulk-orders/${randomUUID()}`)).status()).toBe(404);
    expect(
      (
        await page.request.post(`/api/bulk-orders/${randomUUID()}/cancel`, { headers: { origin: ORIGIN }, data: { nope: 1 } })
      ).status(),
    ).toBe(400);
  });
});
