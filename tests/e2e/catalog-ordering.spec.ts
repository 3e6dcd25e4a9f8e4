import { E2E_ORIGIN } from "../../playwright.config";
import { expect, test, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { signInAs } from "./helpers";
import {
  cheapVariant,
  findProduct,
  sandboxApi,
  sandboxControl,
  upstreamOrdersWithReference,
  type SandboxProduct,
} from "./sandbox";
import { expectNoAxeViolations } from "./axe";

const ORIGIN = E2E_ORIGIN;

async function openProduct(page: Page, product: SandboxProduct) {
  await page.goto(`/catalog/${encodeURIComponent(product.id)}`);
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
}

async function expectFulfilled(page: Page) {
  await expect(page).toHaveURL(/\/orders\/[^/]+$/);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-status", "fulfilled", { timeout: 20_000 });
}

async function reference(page: Page, value: string) {
  await page.getByLabel("Client reference").fill(value);
}

test.describe("catalog", () => {
  test("search, filters and page size live in the URL, and the back button works", async ({ page }) => {
    const product = await findProduct((p) => p.isAvailable && p.type === "gift-card");
    const word = product.name.split(" ")[0]!;
    await signInAs(page, "buyer");
    await page.goto("/catalog");
    await expect(page.getByTestId("product-card").first()).toBeVisible();
    await page.getByRole("searchbox", { name: "Search" }).fill(word);
    await expect(page).toHaveURL(new RegExp(`q=${word}`));
    await expect(page.getByTestId("product-card").first()).toContainText(word);

    await page.getByLabel("Country").selectOption(product.countryCode);
    await expect(page).toHaveURL(new RegExp(`country=${product.countryCode}`));
    await expect(page.getByRole("link", { name: new RegExp(product.name) })).toBeVisible();

    await page.goBack();
    await expect(page).not.toHaveURL(/country=/);
    await page.getByLabel("Per page").selectOption("50");
    await expect(page).toHaveURL(/size=50/);
  });

  test("a category alias filters by type, and an empty result offers to clear the filters", async ({ page }) => {
    await signInAs(page, "viewer");
    await page.goto("/catalog?category=esim");
    await expect(page.getByTestId("product-card").first()).toContainText("eSIM");
    await page.goto("/catalog?q=zzzz-nothing-matches");
    await expect(page.getByTestId("catalog-empty")).toContainText("No products match");
    await page.getByTestId("catalog-empty").getByRole("link", { name: "Clear filters" }).click();
    await expect(page.getByTestId("product-card").first()).toBeVisible();
  });

  test("links navigate inside the page: the document stays, the back button works, a modifier click is the browser's", async ({
    page,
    context,
  }) => {
    await signInAs(page, "buyer");
    await page.goto("/catalog");
    const card = page.getByTestId("product-card").first();
    const href = await card.getAttribute("href");
    expect(href).toMatch(/^\/catalog\/.+/);
    // A mark on this document: a full load would start a new one without it.
    await page.evaluate(() => ((window as unknown as { linkMark: string }).linkMark = "same document"));
    const documents: string[] = [];
    page.on("request", (req) => {
      if (req.resourceType() === "document") documents.push(req.url());
    });

    const name = await card.getByRole("heading").textContent();
    await card.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name!);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders" }).click();
    await expect(page).toHaveURL(/\/orders$/);
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    expect(await page.evaluate(() => (window as unknown as { linkMark?: string }).linkMark)).toBe("same document");
    expect(documents).toEqual([]);

    // Ctrl+click opens a new tab and leaves this page where it is.
    const opened = context.waitForEvent("page");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Catalog" })
      .click({ modifiers: ["Control"] });
    const tab = await opened;
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe("/catalog");
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await tab.close();
  });

  test("catalog and product pages have no accessibility violations of any impact", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await signInAs(page, "buyer");
    await page.goto("/catalog");
    await expect(page.getByTestId("product-card").first()).toBeVisible();
    await expectNoAxeViolations(page, "the catalog");
    await openProduct(page, product);
    await expectNoAxeViolations(page, "a product");
  });
});

test.describe("ordering", () => {
  test("a buyer quotes and orders a variant product and watches it reach fulfilled", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await signInAs(page, "buyer");
    await openProduct(page, product);
    const ref = `e2e-variant-${Date.now()}`;
    await reference(page, ref);
    await page.getByRole("button", { name: "Get quote" }).click();
    await expect(page.getByTestId("quote-total")).toBeVisible();
    await expect(page.getByTestId("quote-countdown")).toHaveText(/\d:\d\d/);
    await page.getByRole("button", { name: "Place order" }).click();
    await expectFulfilled(page);
    expect(await upstreamOrdersWithReference(ref)).toHaveLength(1);
  });

  test("a value-range product accepts only grid values and orders at the chosen value", async ({ page }) => {
    const product = await findProduct(
      (p) => p.isAvailable && p.variants.length === 0 && p.type !== "phone-top-up" && p.minimumValue !== null,
    );
    await signInAs(page, "buyer");
    await openProduct(page, product);
    const ref = `e2e-value-${Date.now()}`;
    await reference(page, ref);
    const valueSelect = page.getByLabel(/^Face value/);
    if ((await valueSelect.evaluate((el) => el.tagName)) === "INPUT") {
      await valueSelect.fill(String(product.minimumValue! + product.valueStep! / 2));
      await page.getByRole("button", { name: "Get quote" }).click();
      await expect(page.getByText(/Choose a multiple of/)).toBeVisible();
      await valueSelect.fill(String(product.minimumValue! + product.valueStep!));
    }
    await page.getByRole("button", { name: "Get quote" }).click();
    await expect(page.getByTestId("quote-total")).toBeVisible();
    await page.getByRole("button", { name: "Place order" }).click();
    await expectFulfilled(page);
    expect(await upstreamOrdersWithReference(ref)).toHaveLength(1);
  });

  test("a value range reads as face value in the card's own currency, and the quote prices it in the sell currency", async ({
    page,
  }) => {
    // The sandbox states the face currency in the description ("Values are in COP; …").
    const faceOf = (p: SandboxProduct) => /\b[Vv]alues are in ([A-Z]{3})\b/.exec(p.description)?.[1] ?? null;
    const product = await findProduct(
      (p) => p.isAvailable && p.variants.length === 0 && p.valueStep !== null && faceOf(p) !== null && faceOf(p) !== p.currency,
    );
    const face = faceOf(product)!;
    const n = (amount: number) => amount.toLocaleString("en");
    const grid = `${face} ${n(product.minimumValue!)} – ${n(product.maximumValue!)} in steps of ${n(product.valueStep!)}`;
    await signInAs(page, "buyer");
    await page.goto(`/catalog?q=${encodeURIComponent(product.name)}`);
    const card = page.getByTestId("product-card").filter({ hasText: product.name }).first();
    await expect(card.getByTestId("product-price")).toHaveText(`Face value ${grid}`);
    await expect(card).toContainText(`Priced in ${product.currency} on the quote`);

    await openProduct(page, product);
    await expect(page.getByTestId("product-price")).toHaveText(`Face value ${grid}`);
    await expect(page.getByTestId("value-range")).toContainText(
      `Any face value from ${face} ${n(product.minimumValue!)} to ${face} ${n(product.maximumValue!)}`,
    );
    const value = page.getByLabel(`Face value (${face})`);
    await expect(value).toBeVisible();
    if (product.type === "phone-top-up") await page.getByLabel("Phone number to top up").fill("+447700900123");
    await page.getByRole("button", { name: "Get quote" }).click();
    const sellSymbol = new Intl.NumberFormat("en", { style: "currency", currency: product.currency })
      .formatToParts(1)
      .find((part) => part.type === "currency")!.value;
    await expect(page.getByTestId("quote-total")).toContainText(sellSymbol);
    await expect(page.getByTestId("quote-total")).not.toContainText(face);
  });

  test("a phone top-up needs an E.164 number before anything is sent", async ({ page }) => {
    const product = await findProduct((p) => p.isAvailable && p.type === "phone-top-up");
    await signInAs(page, "buyer");
    await openProduct(page, product);
    const ref = `e2e-topup-${Date.now()}`;
    await reference(page, ref);
    await page.getByLabel("Phone number to top up").fill("07700 900123");
    await page.getByRole("button", { name: "Get quote" }).click();
    await expect(page.getByTestId("error-phoneNumber")).toContainText("international format");
    await page.getByLabel("Phone number to top up").fill("+447700900123");
    await page.getByRole("button", { name: "Get quote" }).click();
    await page.getByRole("button", { name: "Place order" }).click();
    await expectFulfilled(page);
    expect(await upstreamOrdersWithReference(ref)).toHaveLength(1);
  });

  test("an expired quote is re-quoted instead of ordered", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await sandboxControl("PUT", "/settings", { quoteTtlSeconds: 2 });
    try {
      await signInAs(page, "buyer");
      await openProduct(page, product);
      await page.getByRole("button", { name: "Get quote" }).click();
      await expect(page.getByTestId("quote-expired")).toBeVisible({ timeout: 10_000 });
      await expect(page.getByRole("button", { name: "Place order" })).toHaveCount(0);
      await sandboxControl("PUT", "/settings", { quoteTtlSeconds: 300 });
      await page.getByRole("button", { name: "Get a new quote" }).click();
      await expect(page.getByTestId("quote-countdown")).toBeVisible();
      await expect(page.getByRole("button", { name: "Place order" })).toBeVisible();
    } finally {
      await sandboxControl("PUT", "/settings", { quoteTtlSeconds: 300 });
    }
  });

  test("the quote counts down on the server's time and an expiry answer clears it, whatever the clocks say", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await signInAs(page, "buyer");
    // The buyer's computer runs 10 minutes fast: a countdown on its clock would read expired (or 10:00).
    await page.clock.setSystemTime(Date.now() + 10 * 60_000);
    await openProduct(page, product);
    await page.getByRole("button", { name: "Get quote" }).click();
    const countdown = page.getByTestId("quote-countdown");
    await expect(countdown).toHaveText(/^4:[3-5]\d|^5:00$/);

    // The Issuing Service's clock runs past the quote's end while the page still counts down.
    await sandboxControl("POST", "/clock/advance", { seconds: 301 });
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByTestId("order-problem")).toContainText("The quote has expired");
    await expect(page.getByTestId("quote")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Place order" })).toHaveCount(0);
    await page.getByRole("button", { name: "Get a new quote" }).click();
    await expect(countdown).toBeVisible();
    await expect(page.getByRole("button", { name: "Place order" })).toBeEnabled();
  });

  test("a maximum below the listed price says so instead of 'the price went up'; a corrected phone number loses its error", async ({
    page,
  }) => {
    const product = await findProduct((p) => cheapVariant(p) && p.variants[0]!.price > 5);
    await signInAs(page, "buyer");
    await openProduct(page, product);
    await reference(page, `e2e-lowmax-${Date.now()}`);
    await page.getByLabel(/Maximum total/).fill("1");
    await page.getByRole("button", { name: "Buy now" }).click();
    await expect(page.getByTestId("order-problem")).toContainText("Your maximum is below the price");
    await expect(page.getByTestId("order-problem")).not.toContainText("went up");

    const topUp = await findProduct((p) => p.isAvailable && p.type === "phone-top-up");
    await openProduct(page, topUp);
    await page.getByLabel("Phone number to top up").fill("07700");
    await page.getByRole("button", { name: "Get quote" }).click();
    await expect(page.getByTestId("error-phoneNumber")).toBeVisible();
    await page.getByLabel("Phone number to top up").fill("+447700900123");
    await expect(page.getByTestId("error-phoneNumber")).toHaveCount(0);
  });

  test("not enough funds says what the order needs and what the wallet has", async ({ page }) => {
    const product = await findProduct((p) => cheapVariant(p) && p.currency === "USD" && p.variants[0]!.price > 2);
    const { availableBalance } = await sandboxApi<{ availableBalance: number }>("/wallet/balance?currency=USD");
    await signInAs(page, "buyer");
    await openProduct(page, product);
    await reference(page, `e2e-funds-${Date.now()}`);
    await sandboxControl("PUT", "/wallet", { balances: { USD: 1 } });
    try {
      await page.getByRole("button", { name: "Buy now" }).click();
      const problem = page.getByTestId("order-problem");
      await expect(problem).toContainText("Not enough funds in the wallet");
      const price = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(product.variants[0]!.price);
      await expect(problem.getByTestId("funds-shortfall")).toHaveText(
        `This order needs ${price}; the wallet has $1.00 available.`,
      );
    } finally {
      await sandboxControl("PUT", "/wallet", { balances: { USD: availableBalance } });
    }
  });

  test("the product page shows the ids a bulk CSV needs, with copy buttons, and a template prefilled for the product", async ({
    page,
  }) => {
    const product = await findProduct((p) => cheapVariant(p) && p.variants.length > 1);
    await signInAs(page, "buyer");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await openProduct(page, product);
    await expect(page.getByTestId("product-id")).toHaveText(product.id);
    await page.getByRole("button", { name: "Copy the product id" }).click();
    await expect(page.getByTestId("copy-product-id-status")).toHaveText("Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(product.id);
    await page.getByText(/^variantId of each variant/).click();
    await expect(page.getByTestId("variant-ids")).toContainText(product.variants[1]!.id);
    // The variants are listed once for a buyer: as the order form's choices.
    await expect(page.getByRole("heading", { name: "Variants" })).toHaveCount(0);

    const download = page.waitForEvent("download");
    await page.getByTestId("bulk-template").click();
    const lines = (await readFile(await (await download).path(), "utf8")).trimEnd().split("\r\n");
    expect(lines[0]).toBe("productId,variantId,value,quantity,clientReference,phoneNumber");
    expect(lines.slice(1)).toEqual(product.variants.map((v) => `${product.id},${v.id},,1,,`));
  });

  test("price_above_maximum shows the new price and asks again instead of failing", async ({ page }) => {
    const product = await findProduct((p) => cheapVariant(p) && p.variants[0]!.price > 5);
    const price = product.variants[0]!.price;
    await signInAs(page, "buyer");
    await openProduct(page, product);
    const ref = `e2e-maximum-${Date.now()}`;
    await reference(page, ref);
    await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1.5 });
    try {
      await page.getByLabel(/Maximum total/).fill(String(price));
      await page.getByRole("button", { name: "Buy now" }).click();
      await expect(page.getByTestId("order-problem")).toContainText("The price went up");
      await expect(page.getByTestId("new-price")).toBeVisible();
      expect(await upstreamOrdersWithReference(ref)).toHaveLength(0);
      await page.getByRole("button", { name: /^Buy at / }).click();
      await expectFulfilled(page);
      expect(await upstreamOrdersWithReference(ref)).toHaveLength(1);
    } finally {
      await sandboxControl("PUT", `/products/${product.id}`, { priceFactor: 1 });
    }
  });

  test("an unavailable product gives its own message and charges nothing", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await signInAs(page, "buyer");
    await openProduct(page, product);
    const ref = `e2e-unavailable-${Date.now()}`;
    await reference(page, ref);
    await sandboxControl("PUT", `/products/${product.id}`, { isAvailable: false });
    try {
      await page.getByRole("button", { name: "Buy now" }).click();
      await expect(page.getByTestId("order-problem")).toContainText("not available right now");
      await expect(page.getByTestId("order-problem")).toContainText("Reference for support:");
      expect(await upstreamOrdersWithReference(ref)).toHaveLength(0);
    } finally {
      await sandboxControl("PUT", `/products/${product.id}`, { isAvailable: true });
    }
  });

  test("a double-clicked order makes one order", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await signInAs(page, "buyer");
    await openProduct(page, product);
    const ref = `e2e-double-${Date.now()}`;
    await reference(page, ref);
    await page.getByRole("button", { name: "Buy now" }).dblclick();
    await expectFulfilled(page);
    expect(await upstreamOrdersWithReference(ref)).toHaveLength(1);
  });

  test("an order above the confirmation amount asks again, showing the balance after it", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await signInAs(page, "buyer");
    await openProduct(page, product);
    await reference(page, `e2e-confirm-${Date.now()}`);
    await page.getByLabel("Quantity").fill("100");
    await page.getByRole("button", { name: "Get quote" }).click();
    await page.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByTestId("confirm-order")).toBeVisible();
    await expect(page.getByTestId("available-after")).toContainText(/\d/);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("confirm-order")).toHaveCount(0);
  });

  test("people without the buyer role see no order form and get 403 from the server", async ({ page }) => {
    const product = await findProduct(cheapVariant);
    await signInAs(page, "support");
    await openProduct(page, product);
    await expect(page.getByRole("form", { name: "Order this product" })).toHaveCount(0);
    const item = { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: product.currency };
    const order = await page.request.post("/api/orders", {
      headers: { origin: ORIGIN },
      data: { idempotencyKey: `forged-${Date.now()}`, clientReference: "forged", item },
    });
    expect(order.status()).toBe(403);
    const quote = await page.request.post("/api/quotes", { headers: { origin: ORIGIN }, data: item });
    expect(quote.status()).toBe(403);
  });

  test("bad order input gets 400 problem documents, never 5xx", async ({ page }) => {
    await signInAs(page, "buyer");
    const bodies = [
      {},
      { idempotencyKey: "k", clientReference: "r", item: { productId: "p", quantity: -1, currency: "usd" } },
      { idempotencyKey: "x".repeat(200), clientReference: "r", quoteId: "q" },
      "not json",
    ];
    for (const data of bodies) {
      const res = await page.request.post("/api/orders", {
        headers: { origin: ORIGIN, "content-type": "application/json" },
        data: typeof data === "string" ? data : JSON.stringify(data),
      });
      expect(res.status(), JSON.stringify(data)).toBe(400);
      expect(res.headers()["content-type"]).toContain("application/problem+json");
    }
    const quote = await page.request.post("/api/quotes", {
      headers: { origin: ORIGIN },
      data: { productId: "p", quantity: 0, currency: "USD" },
    });
    expect(quote.status()).toBe(400);
    expect((await page.request.get("/api/catalog/products?size=7")).status()).toBe(400);
  });
});
