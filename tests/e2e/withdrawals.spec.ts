import { E2E_ORIGIN } from "../../playwright.config";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { addStaff, namePayoutDetails, signIn, signInAs, withDb, type ROLES } from "./helpers";
import { sandboxApi, sandboxControl } from "./sandbox";

/** "$1,234.56" → 123456 (cents), the first amount in a text. */
const centsIn = (text: string) => Number((/-?\$[\d,]+\.\d\d/.exec(text)?.[0] ?? "NaN").replace(/[$,]/g, "").replace(".", ""));

// This spec advances the sandbox's clock (a payout needs a business day), which cannot be
// undone: it is named to run last (one worker, files in alphabetical order).
const ORIGIN = E2E_ORIGIN;
const MAKER = "maker@demo.local"; // holds finance and approver: still may not approve their own request

type UpstreamWithdrawal = { id: string; amount: number; status: string };

async function upstreamWithdrawalsOf(amount: string): Promise<UpstreamWithdrawal[]> {
  const all: UpstreamWithdrawal[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: UpstreamWithdrawal[]; nextCursor: string | null } = await sandboxApi(
      `/withdrawals?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
    );
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all.filter((w) => w.amount.toFixed(2) === amount);
}

let cents = 2000 + Math.floor(Math.random() * 5000);
/** A distinct USD amount per request, so each test counts only its own upstream withdrawals. */
const freshAmount = () => ((cents += 1) / 100 + 20).toFixed(2);

async function as(
  browser: Browser,
  who: (typeof ROLES)[number] | typeof MAKER,
  viewport = { width: 1440, height: 900 },
): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  if (who === MAKER) {
    await signIn(page, MAKER);
    await expect(page.getByTestId("current-staff")).toContainText(MAKER);
  } else await signInAs(page, who);
  await page.goto("/withdrawals");
  return page;
}

/** Finance's form: quote, then submit; returns the new request's id. */
async function requestWithdrawal(page: Page, amount: string, reason = "Quarterly sweep of unused funds"): Promise<string> {
  const form = page.getByRole("form", { name: "Request a withdrawal" });
  await form.getByLabel("Currency").selectOption("USD");
  await form.getByLabel("Amount").fill(amount);
  await form.getByLabel("Reason").fill(reason);
  await form.getByRole("button", { name: "Get quote" }).click();
  await expect(form.getByTestId("withdrawal-quote")).toBeVisible();
  await form.getByRole("button", { name: "Submit for approval" }).click();
  await expect(form.getByTestId("withdrawal-submitted")).toContainText("waiting for another person");
  const card = page
    .getByTestId("withdrawal")
    .filter({ hasText: reason })
    .filter({ hasText: `$${Number(amount).toLocaleString("en-US", { minimumFractionDigits: 2 })}` })
    .first();
  await expect(card.getByTestId("withdrawal-state")).toHaveText("Awaiting approval");
  return (await card.getAttribute("data-id"))!;
}

const card = (page: Page, id: string) => page.locator(`[data-testid="withdrawal"][data-id="${id}"]`);

test.beforeAll(async () => {
  await addStaff(MAKER, "Morgan Maker", ["finance", "approver"]);
  await namePayoutDetails();
});

test("finance requests, the requester cannot approve, an approver approves; it is requested upstream and later paid", async ({
  browser,
}) => {
  const maker = await as(browser, MAKER);
  const amount = freshAmount();
  const id = await requestWithdrawal(maker, amount);
  await expect(card(maker, id).getByTestId("own-request-note")).toBeVisible();
  await expect(card(maker, id).getByRole("button", { name: "Approve…" })).toHaveCount(0);
  // A forged approval by the requester is refused by the server.
  const forged = await maker.request.post(`/api/withdrawals/${id}/approval`, { headers: { origin: ORIGIN }, data: {} });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).code).toBe("own_request");
  expect(await upstreamWithdrawalsOf(amount)).toHaveLength(0);

  const approver = await as(browser, "approver");
  const pending = card(approver, id);
  await pending.getByRole("button", { name: "Approve…" }).click();
  await pending.getByLabel("Comment (optional)").fill("Within the monthly plan");
  await pending.getByRole("button", { name: "Approve and send" }).click();
  await expect(pending.getByTestId("withdrawal-state")).toHaveText("Requested upstream");
  await expect(pending).toContainText("Approved by Demo Approver");
  await expect(pending).toContainText("Requested by Morgan Maker");
  const upstream = await upstreamWithdrawalsOf(amount);
  expect(upstream.map((w) => w.status)).toEqual(["requested"]);
  await expect(pending).toContainText(upstream[0]!.id);

  // A business day later (the sandbox's clock) the Issuing Service pays it out.
  await sandboxControl("POST", "/clock/advance", { seconds: 4 * 86_400 });
  await expect
    .poll(
      async () => {
        await approver.reload();
        return card(approver, id).getByTestId("withdrawal-state").textContent();
      },
      { timeout: 30_000, intervals: [1_000, 2_000, 3_000] },
    )
    .toBe("Paid");
  expect((await upstreamWithdrawalsOf(amount)).map((w) => w.status)).toEqual(["paid"]);

  const audit = await as(browser, "admin");
  await audit.goto("/audit?action=withdrawal.*");
  for (const step of [
    "Requested a withdrawal",
    "Tried to decide own withdrawal",
    "Approved a withdrawal",
    "Withdrawal sent to the Issuing Service",
    "Withdrawal paid out",
  ]) {
    await expect(audit.getByRole("main")).toContainText(step);
  }
});

test("an approver sees where the money goes (the payout details' name), the net amount, and the wallet after the withdrawal", async ({
  browser,
}) => {
  const PAYOUT = "Acme Trading Ltd · account ending 4821";
  const admin = await as(browser, "admin");
  const name = async (payoutDetailsName: string) => {
    const res = await admin.request.put("/api/settings", { headers: { origin: ORIGIN }, data: { payoutDetailsName } });
    expect(res.ok(), await res.text()).toBe(true);
  };
  await name(PAYOUT);
  try {
    const finance = await as(browser, "finance");
    const amount = freshAmount();
    const id = await requestWithdrawal(finance, amount, "Sweep checked against the wallet");
    const { netAmount, fee } = (await (await finance.request.get(`/api/withdrawals/${id}`)).json()) as {
      netAmount: string;
      fee: string;
    };
    const dollars = (v: string) => `$${Number(v).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;

    for (const [size, viewport] of [
      ["desktop", { width: 1440, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      const approver = await as(browser, "approver", viewport);
      await approver.goto("/wallet"); // a fresh read: the card's balance is then exactly the supplier's
      await approver.goto("/withdrawals?state=pending");
      const facts = card(approver, id).getByTestId("withdrawal-facts");
      await expect(facts.getByTestId("withdrawal-payout-name")).toHaveText(
        `${PAYOUT} (the payout details registered with the Issuing Service)`,
      );
      await expect(facts.getByTestId("withdrawal-net")).toHaveText(
        `${dollars(netAmount)} USD arrives there, after the ${dollars(fee)} fee`,
      );
      const balance = facts.getByTestId("balance-after-USD");
      const supplier = Math.round(
        (await sandboxApi<{ availableBalance: number }>("/wallet/balance?currency=USD")).availableBalance * 100,
      );
      expect(centsIn((await balance.textContent()) ?? "")).toBe(supplier);
      expect(centsIn((await balance.getByTestId("balance-after-amount").textContent()) ?? "")).toBe(
        supplier - Math.round(Number(amount) * 100),
      );
      await expect(facts.getByTestId("balance-after-read-at")).toHaveText(
        /^As read at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC(\.|; updating: the wallet moved after this read\.)$/,
      );
      const { scrollWidth, innerWidth } = await approver.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, size).toBeLessThanOrEqual(innerWidth);
      if (process.env.E2E_SCREENSHOTS === "1") {
        await card(approver, id).scrollIntoViewIfNeeded();
        await approver.screenshot({ path: `test-results/cards/withdrawal-${size}.png`, fullPage: true });
      }
      await approver.context().close();
    }
    // Unnamed, the card says where it goes all the same, and that it cannot be approved until named.
    await name("");
    // (The whole list, not the pending filter: the card stays in view once rejected.)
    const approver = await as(browser, "approver");
    await expect(card(approver, id).getByTestId("withdrawal-payout-name")).toHaveText(
      "the payout details registered with the Issuing Service, not named yet",
    );
    await expect(card(approver, id).getByRole("button", { name: "Approve…" })).toBeDisabled();
    // Rejected, so that it waits for nobody after this test.
    await card(approver, id).getByRole("button", { name: "Reject…" }).click();
    await card(approver, id).getByLabel("Why is it rejected?").fill("Only checked here");
    await card(approver, id).getByRole("button", { name: "Reject", exact: true }).click();
    await expect(card(approver, id).getByTestId("withdrawal-state")).toHaveText("Rejected");
  } finally {
    await namePayoutDetails();
  }
});

test("a rejected and an expired request are never sent", async ({ browser }) => {
  const finance = await as(browser, "finance");
  const [a, b] = [freshAmount(), freshAmount()];
  const rejectedId = await requestWithdrawal(finance, a, "Pay out the December surplus");
  const expiredId = await requestWithdrawal(finance, b, "Pay out the November surplus");
  await withDb((db) =>
    db.query(`UPDATE "WithdrawalRequest" SET "expiresAt" = now() - interval '1 minute' WHERE id = $1`, [expiredId]),
  );

  const approver = await as(browser, "approver");
  const toReject = card(approver, rejectedId);
  await toReject.getByRole("button", { name: "Reject…" }).click();
  await toReject.getByRole("button", { name: "Reject", exact: true }).click();
  // An empty comment is a field error, not a banner: nothing is sent.
  await expect(toReject.getByTestId("error-comment")).toContainText("Say why it is rejected");
  await expect(toReject.getByLabel("Why is it rejected?")).toHaveAttribute("aria-invalid", "true");
  await toReject.getByLabel("Why is it rejected?").fill("Funds are needed for the holiday orders");
  await toReject.getByRole("button", { name: "Reject", exact: true }).click();
  await expect(toReject.getByTestId("withdrawal-state")).toHaveText("Rejected");
  await expect(toReject).toContainText("Never sent");

  await expect(card(approver, expiredId).getByTestId("withdrawal-state")).toHaveText("Expired");
  await expect(card(approver, expiredId).getByRole("button", { name: "Approve…" })).toHaveCount(0);
  const forced = await approver.request.post(`/api/withdrawals/${expiredId}/approval`, { headers: { origin: ORIGIN }, data: {} });
  expect(forced.status()).toBe(409);

  expect(await upstreamWithdrawalsOf(a)).toHaveLength(0);
  expect(await upstreamWithdrawalsOf(b)).toHaveLength(0);
});

test("cancellation: before approval in the app, after sending at the Issuing Service", async ({ browser }) => {
  const finance = await as(browser, "finance");
  const [a, b] = [freshAmount(), freshAmount()];
  const early = await requestWithdrawal(finance, a, "Sweep to be cancelled early");
  const late = await requestWithdrawal(finance, b, "Sweep to be cancelled after sending");

  await card(finance, early).getByRole("button", { name: "Cancel withdrawal…" }).click();
  await card(finance, early).getByRole("button", { name: "Cancel withdrawal", exact: true }).click();
  await expect(card(finance, early).getByTestId("withdrawal-state")).toHaveText("Cancelled");

  const approver = await as(browser, "approver");
  await card(approver, late).getByRole("button", { name: "Approve…" }).click();
  await card(approver, late).getByRole("button", { name: "Approve and send" }).click();
  await expect(card(approver, late).getByTestId("withdrawal-state")).toHaveText("Requested upstream");

  await finance.reload();
  await card(finance, late).getByRole("button", { name: "Cancel withdrawal…" }).click();
  await expect(card(finance, late)).toContainText("at the Issuing Service");
  await card(finance, late).getByRole("button", { name: "Cancel withdrawal", exact: true }).click();
  await expect(card(finance, late).getByTestId("withdrawal-state")).toHaveText("Cancelled");
  await expect(card(finance, late)).toContainText("Cancelled by Demo Finance");

  expect(await upstreamWithdrawalsOf(a)).toHaveLength(0);
  expect((await upstreamWithdrawalsOf(b)).map((w) => w.status)).toEqual(["cancelled"]);
});

test("an amount above the balance is refused at the quote with the reason; viewers only read", async ({ browser }) => {
  const finance = await as(browser, "finance");
  const form = finance.getByRole("form", { name: "Request a withdrawal" });
  await form.getByLabel("Amount").fill("999999999.00");
  await form.getByRole("button", { name: "Get quote" }).click();
  await expect(form.getByTestId("withdrawal-problem")).toContainText("Above the available balance");
  await form.getByLabel("Amount").fill("12.345");
  await form.getByRole("button", { name: "Get quote" }).click();
  await expect(form.getByTestId("error-amount")).toBeVisible();

  const viewer = await as(browser, "viewer");
  await expect(viewer.getByRole("heading", { name: "Withdrawals" })).toBeVisible();
  await expect(viewer.getByRole("form", { name: "Request a withdrawal" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /Approve|Reject|Cancel/ })).toHaveCount(0);
  const forged = await viewer.request.post("/api/withdrawals", {
    headers: { origin: ORIGIN },
    data: { amount: "25.00", currency: "USD", reason: "Forged by a viewer" },
  });
  expect(forged.status()).toBe(403);
  await viewer.screenshot({ path: "test-results/withdrawals-viewer.png", fullPage: true });
  await finance.screenshot({ path: "test-results/withdrawals-finance.png", fullPage: true });
});

test("bad input to the wallet and withdrawal API gets 400 problem documents and changes nothing", async ({ browser }) => {
  const finance = await as(browser, "finance");
  const approver = await as(browser, "approver");
  const count = () => withDb(async (db) => Number((await db.query(`SELECT count(*) FROM "WithdrawalRequest"`)).rows[0].count));
  const before = await count();
  const post = (page: Page, url: string, data: string) =>
    page.request.post(url, { headers: { origin: ORIGIN, "content-type": "application/json" }, data });
  const cases: [Page, string, string][] = [
    [finance, "/api/withdrawals", "not json"],
    [finance, "/api/withdrawals", "[1,2]"],
    [finance, "/api/withdrawals", JSON.stringify({ amount: "12", currency: "USD", reason: "x".repeat(5_000) })],
    [finance, "/api/withdrawals", JSON.stringify({ amount: { $gt: 1 }, currency: ["USD"], reason: null })],
    [finance, "/api/withdrawals/quotes", JSON.stringify({ amount: "NaN", currency: "USD" })],
    [finance, "/api/withdrawals/quotes", JSON.stringify({ amount: "99999999999999999999", currency: "USD" })],
    [approver, "/api/withdrawals/not-an-id/approval", "{}"],
    [approver, "/api/withdrawals/wr_aaaaaaaaaaaa/rejection", JSON.stringify({ comment: 42 })],
    [approver, "/api/withdrawals/%00%ff/cancellation", ""],
  ];
  for (const [page, url, data] of cases) {
    const res = await post(page, url, data);
    expect(res.status(), `${url} ${data.slice(0, 60)}`).toBe(400);
    expect(res.headers()["content-type"]).toContain("application/problem+json");
  }
  for (const url of [
    "/api/withdrawals?state=everything",
    "/api/withdrawals?page=-1",
    "/api/withdrawals/..%2f..%2fetc",
    "/api/wallet/deposits?limit=1000",
    "/api/wallet/balance-history?currency=usd",
  ]) {
    const res = await finance.request.get(url);
    expect(res.status(), url).toBe(400);
  }
  // A path Next cannot decode is refused before any page or handler (it used to be a bare 500).
  expect((await finance.request.get("/api/withdrawals/%ff")).status()).toBe(400);
  expect((await finance.request.get("/withdrawals/%ff")).status()).toBe(400);
  expect(await count()).toBe(before);
});
