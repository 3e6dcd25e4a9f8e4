import { expect, test, type Page } from "@playwright/test";
import { DEMO_PASSWORD, E2E_ORIGIN } from "../../playwright.config";
import { addStaff, shots, signedInPage, withDb } from "./helpers";

// Issue 55's closing and delivery: finance locks a month, a second person reopens it, and the
// monthly journal's email reaches the local catcher with a link that works after sign-in only.
const FINANCE = "finance@demo.local";
const SECOND = "books-second@demo.local"; // this spec's own second person in finance

/** Last month, `YYYY-MM` (UTC): ended, so it may be locked, and what the monthly email sends. */
const now = new Date();
const MONTH = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
const LABEL = new Date(`${MONTH}-01T00:00:00Z`).toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
const SUBJECT = `The journal for ${LABEL} is ready`;

test.beforeAll(async () => {
  await addStaff(SECOND, "Bo Books", ["finance"]);
  // A run before this one left the month locked and its email sent: start from an open month, none sent.
  await withDb(async (db) => {
    await db.query(`DELETE FROM "BookPeriod" WHERE "period" = $1`, [MONTH]);
    await db.query(`DELETE FROM "NotificationEvent" WHERE "eventKey" = $1`, [`books.journal_ready:${MONTH}`]);
    await db.query(`DELETE FROM "CaughtMail" WHERE strpos("subject", $1) > 0`, [SUBJECT]);
    await db.query(`DELETE FROM "Setting" WHERE "key" = 'bookDelivery'`);
  });
});

test.afterAll(async () => {
  await withDb((db) => db.query(`DELETE FROM "Setting" WHERE "key" = 'bookDelivery'`));
});

const card = (page: Page) => page.getByRole("listitem").filter({ has: page.getByTestId(`period-${MONTH}`) });

async function decide(page: Page, open: string, confirm: string, comment?: string) {
  const panel = card(page);
  await panel.getByRole("button", { name: open }).click();
  if (comment) await panel.getByLabel("Why must it be reopened?").fill(comment);
  await panel.getByRole("button", { name: confirm }).click();
}

test("finance locks last month; reopening waits for a second person in finance, who reopens it", async ({ browser }) => {
  const finance = await signedInPage(browser, FINANCE);
  await finance.goto("/reports/journal");
  await expect(finance.getByRole("heading", { name: "Accounting export", level: 1 })).toBeVisible();
  await expect(card(finance).getByTestId("period-state")).toHaveText("Open");
  await shots(finance, "accounting-export");

  await decide(finance, "Lock month…", `Lock ${LABEL}`);
  await expect(card(finance).getByTestId("period-state")).toHaveText("Locked");
  await expect(card(finance)).toContainText("this journal no longer changes");

  await decide(finance, "Ask to reopen…", "Ask to reopen", "A deposit was booked in the wrong month");
  await expect(card(finance).getByTestId("period-state")).toHaveText("Locked, reopening asked");
  // The one who asked is offered no approval (and the server refuses it: the integration tests).
  await expect(card(finance).getByRole("button", { name: "Approve reopening…" })).toHaveCount(0);

  const second = await signedInPage(browser, SECOND);
  await second.goto("/reports/journal");
  await expect(card(second)).toContainText("A deposit was booked in the wrong month");
  await decide(second, "Approve reopening…", `Reopen ${LABEL}`);
  await expect(card(second).getByTestId("period-state")).toHaveText("Open");
  await expect
    .poll(() =>
      withDb(
        async (db) =>
          (await db.query(`SELECT 1 FROM "AuditEvent" WHERE "action" = 'books.period_reopened' AND "targetId" = $1`, [MONTH]))
            .rowCount,
      ),
    )
    .toBeGreaterThan(0);
  await finance.context().close();
  await second.context().close();
});

test("the monthly journal's email reaches the chosen person with a link that works after sign-in and not before", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const finance = await signedInPage(browser, FINANCE);
  await finance.goto("/reports/journal");
  const form = finance.getByRole("form", { name: "Monthly journal by email" });
  await form.getByLabel("Send").selectOption("monthly");
  await form.getByLabel("Format").selectOption("xero");
  await form.getByRole("checkbox", { name: /Bo Books/ }).check();
  await form.getByRole("button", { name: "Save delivery" }).click();
  await expect(form.getByText("Saved")).toBeVisible();
  await finance.context().close();

  // The worker's minute pass sends last month's journal to the people just chosen.
  let text = "";
  await expect
    .poll(
      async () => {
        const { rows } = await withDb((db) =>
          db.query<{ text: string }>(`SELECT "text" FROM "CaughtMail" WHERE $1 = ANY("to") AND strpos("subject", $2) > 0`, [
            SECOND,
            SUBJECT,
          ]),
        );
        text = rows[0]?.text ?? "";
        return rows.length;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe(1);
  expect(text).not.toMatch(/svckey_|BEGIN|Authorization/);
  const link = text.match(/https?:\/\/\S+\/reports\/journal\/delivered\?t=\S+/)?.[0];
  expect(link, text).toBeTruthy();
  const path = new URL(link!).pathname + new URL(link!).search;

  // Not signed in: the page sends to sign-in, the download is refused.
  const stranger = await (await browser.newContext()).newPage();
  const api = await stranger.request.get(`/api/books/journal/delivered${new URL(link!).search}`);
  expect(api.status()).toBe(401);
  await stranger.goto(path);
  await expect(stranger).toHaveURL(/\/signin\?callbackUrl=/);

  // Signed in from there: back at the link, whose download is the Xero file of the month.
  await stranger.getByLabel("Email").fill(SECOND);
  await stranger.getByLabel("Password").fill(DEMO_PASSWORD);
  await stranger.getByRole("button", { name: "Sign in" }).click();
  await expect(stranger.getByTestId("delivered-journal")).toContainText(LABEL);
  await shots(stranger, "journal-delivered");
  const download = stranger.waitForEvent("download");
  await stranger.getByTestId("delivered-download").click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^journal-${MONTH}-xero-`));
  const body = await stranger.request.get(`${E2E_ORIGIN}/api/books/journal/delivered${new URL(link!).search}`);
  expect(body.status()).toBe(200);
  expect((await body.text()).split("\r\n")[0]).toBe(
    "Narration,Date,Description,AccountCode,TaxRate,Amount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2",
  );

  // An altered link leads nowhere.
  await stranger.goto(`${path.slice(0, -3)}abc`);
  await expect(stranger.getByTestId("delivered-expired")).toBeVisible();
  await stranger.context().close();
});

test("an admin maps the accounts in Settings; the journal's lines carry the new code and name", async ({ browser }) => {
  const admin = await signedInPage(browser, "admin");
  await admin.goto("/settings#accounts");
  const form = admin.getByRole("form", { name: "Accounts of the accounting export" });
  await form.getByLabel("Code").first().fill("1215");
  await form.getByLabel("Name").first().fill("Issuing Service wallet");
  await form.getByRole("button", { name: "Save accounts" }).click();
  await expect(form.getByText("Saved")).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  await shots(admin, "settings-accounts");
  // A deposit credited now (as the wallet.credited webhook records it), so this month's journal has its lines.
  const eventId = `evt_books_${Date.now()}`;
  await withDb((db) =>
    db.query(`INSERT INTO "WalletCredit" ("eventId", "amountMinor", "currency", "occurredAt") VALUES ($1, 12345, 'USD', now())`, [
      eventId,
    ]),
  );
  try {
    const month = new Date().toISOString().slice(0, 7);
    const csv = await (await admin.request.get(`/api/books/journal?period=${month}&format=plain&currency=USD`)).text();
    const lines = csv.split("\r\n").filter((line) => line.includes(eventId));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(",1215,Issuing Service wallet,123.45,,USD,Deposit credited to the supplier wallet,");
  } finally {
    await withDb(async (db) => {
      await db.query(`DELETE FROM "Setting" WHERE "key" = 'bookAccounts'`);
      await db.query(`DELETE FROM "WalletCredit" WHERE "eventId" = $1`, [eventId]);
    });
    await admin.context().close();
  }
});
