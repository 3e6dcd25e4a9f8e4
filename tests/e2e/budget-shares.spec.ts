import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { E2E_ORIGIN } from "../../playwright.config";
import { addStaff, signIn, signInAs, withDb } from "./helpers";
import { findProduct, sandboxControl } from "./sandbox";

/**
 * One person cannot take the workspace's upstream budget. A viewer floods reads (unknown order
 * ids, unknown client references, catalog searches) at the start of a minute, against the app
 * as `npm start` runs it (two app processes on this machine, one database budget); in the
 * same seconds a buyer orders and support searches by a customer's reference. The order and
 * the search go through; the flooder gets 429 with Retry-After, and the upstream counted no
 * more of the flooder's calls than their share.
 */
const FLOODER = "flooder@demo.local";
const PARALLEL = 20;

type Window = { workspace: string; startUtc: string; accepted: number; rateLimited: number };

async function apiAs(
  browser: Browser,
  sign: (page: import("@playwright/test").Page) => Promise<void>,
): Promise<APIRequestContext> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await sign(page);
  const storageState = await context.storageState();
  await context.close();
  return playwrightRequest.newContext({ baseURL: E2E_ORIGIN, storageState, extraHTTPHeaders: { origin: E2E_ORIGIN } });
}

/** Runs `jobs` PARALLEL at a time, keeping each answer's status and Retry-After. */
async function flood(jobs: (() => Promise<import("@playwright/test").APIResponse>)[]) {
  const answers: { status: number; retryAfter?: string; code?: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < jobs.length) {
        const res = await jobs[next++]!();
        const body = res.status() === 429 ? ((await res.json()) as { code?: string }) : undefined;
        answers.push({ status: res.status(), retryAfter: res.headers()["retry-after"], code: body?.code });
      }
    }),
  );
  return answers;
}

const hex = (n: number) => randomBytes(n).toString("hex");

test.describe("the upstream budget's shares", () => {
  test("a flood of reads by one person leaves orders and support working; the flooder gets 429 with Retry-After", async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    await addStaff(FLOODER, "Flood Viewer", ["viewer"]);
    const [flooder, buyer, support] = await Promise.all([
      apiAs(browser, async (page) => {
        await signIn(page, FLOODER);
        await expect(page.getByTestId("current-staff")).toContainText(FLOODER);
      }),
      apiAs(browser, (page) => signInAs(page, "buyer")),
      apiAs(browser, (page) => signInAs(page, "support")),
    ]);
    const product = await findProduct((p) => p.isAvailable && p.currency === "USD" && p.variants.length > 0);
    const item = { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: "USD" };
    const staffId = await withDb(
      async (db) => (await db.query(`SELECT id FROM "Staff" WHERE email = $1`, [FLOODER])).rows[0].id as string,
    );
    const settings = await withDb(async (db) => (await db.query(`SELECT key, value FROM "Setting"`)).rows);
    expect(settings.filter((s: { key: string }) => s.key.startsWith("upstream"))).toEqual([]);

    // At the start of a minute, so the flood falls in one window of the budget and the sandbox.
    const now = Date.now();
    if (now % 60_000 > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - (now % 60_000) + 200));
    const rateLimit = (await sandboxControl("GET", "/rate-limit")) as { perMinute: number; windows: Window[] };
    // Summed over every window the sandbox keeps: its clock may have been moved by another spec.
    const acceptedBefore = rateLimit.windows.reduce((sum, w) => sum + w.accepted, 0);

    const jobs = [
      ...Array.from({ length: 200 }, () => () => flooder.get(`/api/orders/ord_${hex(10)}`)),
      ...Array.from({ length: 100 }, () => () => flooder.get(`/api/orders?reference=${hex(6)}`)),
      ...Array.from({ length: 200 }, () => () => flooder.get(`/api/catalog/products?q=${hex(4)}`)),
    ];
    const flooding = flood(jobs);
    // A moment into the flood, the others work as usual.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const [order, search] = await Promise.all([
      buyer.post("/api/orders", { data: { idempotencyKey: `flood-${hex(6)}`, clientReference: `flood-${hex(4)}`, item } }),
      support.get(`/api/orders?reference=${encodeURIComponent(`customer-${hex(5)}`)}`),
    ]);
    const othersMs = Date.now() - started;
    expect([201, 202]).toContain(order.status());
    expect(search.status()).toBe(200);
    expect(othersMs).toBeLessThan(5_000);

    const answers = await flooding;
    const statuses = answers.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {});
    console.log(`the flooder's answers by status: ${JSON.stringify(statuses)}`);
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(refused.length).toBeGreaterThan(250);
    for (const a of refused) {
      expect(a.code).toBe("rate_limited");
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(a.retryAfter)).toBeLessThanOrEqual(60);
    }

    // What the budget charged the flooder, per window: never past their share (a quarter of the
    // minute) nor their lookups (10 a minute), however many processes served them.
    const share = Math.floor(rateLimit.perMinute / 4);
    const rows = await withDb(
      async (db) =>
        (
          await db.query(
            `SELECT "windowStart", interactive, background, lookups, refused FROM "UpstreamSpend" WHERE spender = $1`,
            [`staff:${staffId}`],
          )
        ).rows as { interactive: number; background: number; lookups: number; refused: number }[],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.interactive + row.background).toBeLessThanOrEqual(share);
      expect(row.lookups).toBeLessThanOrEqual(10);
    }
    const flooderCalls = rows.reduce((sum, r) => sum + r.interactive + r.background, 0);
    // The upstream's own count for the window: the flooder's calls and a handful of others
    // (the order, the search, the worker), nowhere near the 500 asked for.
    const after = (await sandboxControl("GET", "/rate-limit")) as { windows: Window[] };
    const accepted = after.windows.reduce((sum, w) => sum + w.accepted, 0) - acceptedBefore;
    expect(accepted).toBeLessThanOrEqual(flooderCalls + 60);
    expect(flooderCalls).toBeLessThanOrEqual(share * rows.length);

    // A page says it calmly rather than failing: past the flooder's lookups of this minute (10;
    // a new minute may have begun since the flood), an unknown id's page counts down to a retry.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, FLOODER);
    await expect(page.getByTestId("current-staff")).toContainText(FLOODER);
    const notice = page.getByTestId("order-rate-limited");
    for (let i = 0; i < 12 && !(await notice.isVisible()); i++) await page.goto(`/orders/ord_${hex(10)}`);
    await expect(notice).toContainText("We could not look up this order yet");
    await expect(notice).toContainText(/Trying again by itself in \d+ seconds?\./);
  });

  test("admins see who spent the budget and who went past their share", async ({ page }) => {
    await signInAs(page, "admin");
    await page.goto("/");
    await expect(page.getByTestId("home-budget-share-alerts")).toContainText(FLOODER);
    await expect(page.getByTestId("home-budget-spenders")).toContainText(FLOODER);
    await page.goto("/audit?action=upstream.share_exceeded");
    await expect(page.getByTestId("audit-table")).toContainText("Went past their share of the upstream budget");
    await expect(page.getByTestId("audit-table")).toContainText(FLOODER);
  });
});
