import { expect, test, type Page } from "@playwright/test";
import { E2E_ORIGIN } from "../../playwright.config";
import { addStaff, askForApproval, bellCount, expectBell, putSettingsAsAdmin, shots, signedInPage, withDb } from "./helpers";
import { findProduct, sandboxControl, type SandboxProduct } from "./sandbox";
import { expectNoAxeViolations } from "./axe";

// Issue 50, items 3.3 and 3.4: what a person is offered (only the kinds their roles receive),
// the settings' words and checks, and notifications that carry enough to act on and lead where
// they say (the bell forgets one on the page it leads to; a decided order links to the order).
const ORIGIN = E2E_ORIGIN;
const BUYER = "choices-buyer@demo.local"; // this spec's own buyer: mail to them is only what it causes
const APPROVER = "approver@demo.local";

const usd = (amount: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount);

let product: SandboxProduct;
let unit = 0;

test.beforeAll(async () => {
  await addStaff(BUYER, "Cleo Choices", ["buyer"]);
  product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  unit = product.variants[0]!.price;
  await sandboxControl("PUT", "/wallet", { balances: { USD: 1_000_000 } });
});

const axe = (page: Page, where: string, exclude?: string) =>
  expectNoAxeViolations(page, `${where}: axe`, { soft: true, exclude });

type Mail = { id: string; subject: string; text: string; html: string | null };

/** Waits for the local catcher to hold mail to `to` whose subject contains `subject`; returns all of it. */
async function awaitMail(to: string, subject: string): Promise<Mail[]> {
  const read = () =>
    withDb(async (db) => {
      const { rows } = await db.query<Mail>(
        `SELECT "id", "subject", "text", "html" FROM "CaughtMail" WHERE $1 = ANY("to") AND strpos("subject", $2) > 0 ORDER BY "receivedAt"`,
        [to, subject],
      );
      return rows;
    });
  await expect.poll(async () => (await read()).length, { timeout: 120_000, intervals: [250, 500, 1000] }).toBeGreaterThan(0);
  return read();
}

test("a person is offered only the kinds their roles receive, in words that fit, and settings that make sense are checked", async ({
  browser,
}) => {
  // A buyer: the decisions on their requests, their failed orders and what they watch, nothing else.
  const buyer = await signedInPage(browser, "buyer", { timezoneId: "America/Halifax" });
  await buyer.goto("/account/notifications");
  const kinds = buyer.getByRole("group", { name: "Send me an email for" }).getByRole("checkbox");
  await expect(kinds).toHaveCount(3);
  await expect(buyer.getByRole("checkbox", { name: "Your request was decided" })).toBeVisible();
  await expect(buyer.getByRole("checkbox", { name: "A product you watch changed price or availability" })).toBeVisible();
  await expect(buyer.getByRole("checkbox", { name: "Your orders failed" })).toBeVisible();
  await expect(buyer.getByText("An approval is waiting")).toHaveCount(0);

  // "Use my time zone" takes the browser's.
  await expect(buyer.getByLabel("Time zone")).not.toHaveValue("America/Halifax");
  await buyer.getByRole("button", { name: "Use my time zone" }).click();
  await expect(buyer.getByLabel("Time zone")).toHaveValue("America/Halifax");

  // Quiet hours that end when they start are refused on the end field, and nothing is saved.
  const stored = () =>
    withDb(async (db) => {
      const { rows } = await db.query(
        `SELECT p.* FROM "NotificationPreference" p JOIN "Staff" s ON s.id = p."staffId" WHERE s.email = 'buyer@demo.local'`,
      );
      return JSON.stringify(rows);
    });
  const before = await stored();
  await buyer.getByLabel("Quiet hours from").fill("22:00");
  await buyer.getByLabel("Quiet hours until").fill("22:00");
  await buyer.getByRole("button", { name: "Save" }).click();
  await expect(buyer.getByText("Quiet hours cannot end at the same time they start.")).toBeVisible();
  await expect(buyer.getByLabel("Quiet hours until")).toHaveAttribute("aria-invalid", "true");
  expect(await stored()).toBe(before);
  await axe(buyer, "a buyer's notification settings, with a field error");
  await shots(buyer, "buyer-settings-error");
  await buyer.context().close();

  // An approver who asks for a digest while approvals come by email is warned first.
  const approver = await signedInPage(browser, "approver");
  await approver.goto("/account/notifications");
  await expect(approver.getByRole("group", { name: "Send me an email for" }).getByRole("checkbox")).toHaveCount(2);
  const waiting = approver.getByRole("checkbox", { name: "An approval is waiting" });
  await waiting.check();
  await approver.getByLabel("How", { exact: true }).selectOption("hourly");
  const warning = approver.getByTestId("digest-approval-warning");
  await expect(warning).toContainText("Approvals would wait for the digest, up to an hour");
  await axe(approver, "an approver's notification settings, with the digest warning");
  await shots(approver, "approver-digest-warning");
  await waiting.uncheck();
  await approver.getByRole("checkbox", { name: "An approval is about to expire" }).uncheck();
  await expect(warning).toHaveCount(0);
  await approver.context().close();

  // The workspace's defaults are headed as defaults, list every kind and say who receives each.
  const admin = await signedInPage(browser, "admin");
  await admin.goto("/settings#notifications");
  const defaults = admin.getByRole("group", { name: "Email people for these, unless they chose their own" });
  await expect(defaults.getByRole("checkbox")).toHaveCount(14);
  await expect(defaults.getByText("An approval is waiting · to approvers")).toBeVisible();
  await expect(admin.getByText("Send me an email for")).toHaveCount(0);
  await shots(admin, "workspace-defaults");
  await admin.context().close();
});

test("the approval email says what, how many, why; the page it leads to reads it; the buyer's decision links to the placed order; caught mail shows the HTML", async ({
  browser,
}) => {
  test.setTimeout(360_000);
  await putSettingsAsAdmin(browser, { spendApprovalAmount: (unit * 1.5).toFixed(2) });
  try {
    // The approver starts with nothing unread, so the bell's figure is this request's.
    const approver = await signedInPage(browser, "approver");
    const read = await approver.request.post("/api/notifications/read-all", { headers: { origin: ORIGIN }, data: {} });
    expect(read.ok(), await read.text()).toBe(true);
    const buyer = await signedInPage(browser, BUYER);
    const reference = `e2e-choices-${Date.now()}`;
    const id = await askForApproval(buyer, product, { reference, reason: "Launch giveaway" });

    // The approver's email carries what an approver decides on, and no code or key.
    const subject = `(ref. ${reference})`;
    const [waiting] = await awaitMail(APPROVER, subject);
    expect(waiting!.text).toContain(`2 × ${product.name}`);
    expect(waiting!.text).toContain(usd(unit * 2));
    expect(waiting!.text).toContain("Reason: Launch giveaway");
    expect(waiting!.text).toContain(`Needs approval because its total of ${usd(unit * 2)} is above the approval threshold`);

    // The caught copy, as a reader sees its HTML part: in a frame that runs no script.
    const admin = await signedInPage(browser, "admin");
    await admin.goto(`/events/caught-mail/${waiting!.id}`);
    const frame = admin.getByTestId("caught-html");
    await expect(frame).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
    await expect(admin.frameLocator('[data-testid="caught-html"]').getByText("Reason: Launch giveaway")).toBeVisible();
    await expect(
      admin.frameLocator('[data-testid="caught-html"]').getByRole("link", { name: "Open in the back office" }),
    ).toBeVisible();
    await expect(frame).toHaveAttribute("title", "The message as its HTML part shows it");
    // axe cannot run inside a frame that runs no script (it waits for it): the page around it is checked.
    await axe(admin, "a caught message", '[data-testid="caught-html"]');
    await shots(admin, "caught-mail");
    await admin.context().close();

    // The approver opens the email's link: on that page the bell no longer counts it.
    await approver.goto("/");
    await expectBell(approver, 1);
    await approver.goto(`/spend-approvals#${id}`);
    await expectBell(approver, 0);
    const card = approver.getByTestId(`spend-request-${id}`);
    await card.getByRole("button", { name: "Approve…" }).click();
    await card.getByRole("button", { name: "Approve and place" }).click();
    await expect(card.getByTestId("spend-state")).toHaveText("Placed");
    const orderId = await withDb(async (db) => {
      const { rows } = await db.query<{ orderId: string }>(`SELECT "orderId" FROM "SpendRequest" WHERE id = $1`, [id]);
      return rows[0]!.orderId;
    });

    // The buyer hears it was approved and placed, and the notice opens the order.
    const [decided, ...again] = await awaitMail(BUYER, `${subject} was approved by`);
    expect(again).toEqual([]);
    expect(decided!.subject).toMatch(/ was approved by .+ and placed$/);
    expect(decided!.text).toContain(`/orders/${orderId}`);
    await buyer.goto("/notifications");
    const item = buyer.getByTestId("inbox-item").filter({ hasText: `${subject} was approved by` });
    await expect(item.getByRole("link")).toHaveAttribute("href", `/orders/${orderId}`);
    const unreadBefore = await bellCount(buyer);
    await item.getByRole("link").click();
    await expect(buyer).toHaveURL(new RegExp(`/orders/${orderId}$`));
    await expectBell(buyer, unreadBefore - 1);
  } finally {
    await putSettingsAsAdmin(browser, { spendApprovalAmount: "" });
  }
});
