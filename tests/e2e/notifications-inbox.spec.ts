import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { PgBoss } from "pg-boss";
import { E2E_DB_PORT } from "../../playwright.config";
import { bellCount, expectBell, signInAs, withDb } from "./helpers";

// The notification core in the running app (local mode): the bell, the inbox, the forms, and an
// email going through the worker to the local mail catcher. The events are arranged in the
// database as notify() records them (the producers have their own spec); everything after that
// is the app's own path. E2E_SCREENSHOTS=1 keeps 1440×900 screenshots under test-results/desktop.
const DESKTOP = { width: 1440, height: 900 };

async function shot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS === "1") await page.screenshot({ path: `test-results/desktop/${name}.png`, fullPage: true });
}

/** One event for one person, in-app and (optionally) by email, as notify() writes it. */
async function arrange(email: string, title: string, link: string, withEmail: boolean): Promise<void> {
  await withDb(async (db) => {
    const eventId = randomUUID();
    await db.query(
      `INSERT INTO "NotificationEvent" (id, "eventKey", kind, title, link) VALUES ($1, $2, 'orders.failed', $3, $4)`,
      [eventId, `e2e:${eventId}`, title, link],
    );
    await db.query(
      `INSERT INTO "Notification" (id, "eventId", "staffId") SELECT gen_random_uuid()::text, $1, id FROM "Staff" WHERE email = $2`,
      [eventId, email],
    );
    if (!withEmail) return;
    const delivery = await db.query<{ id: string }>(
      `INSERT INTO "NotificationDelivery" (id, "deliveryKey", "eventId", channel, "staffId", status, "dueAt", "updatedAt")
       SELECT gen_random_uuid()::text, $1, $2, 'email', id, 'pending', now(), now() FROM "Staff" WHERE email = $3 RETURNING id`,
      [`e2e:${eventId}:email`, eventId, email],
    );
    await queueDelivery(delivery.rows[0]!.id);
  });
}

/** The delivery's `notifications.send` job, as notify() queues it beside the row (pg-boss's own insert). */
async function queueDelivery(deliveryId: string): Promise<void> {
  const boss = new PgBoss({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${E2E_DB_PORT}/postgres?sslmode=disable`,
    max: 1,
    migrate: false,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  try {
    await boss.insert("notifications.send", [{ data: { deliveryId }, singletonKey: deliveryId }]);
  } finally {
    await boss.stop({ graceful: false, timeout: 1_000 });
  }
}

test("the bell counts the unread; the inbox links to the page, and following it marks it read", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const title = `2 orders failed: $40.00 (${randomUUID().slice(0, 6)})`;
  await arrange("support@demo.local", title, "/orders?status=failed", false);
  await signInAs(page, "support");
  await expect(page.getByTestId("bell-count")).toHaveText(/^[1-9]\d*$/);
  const before = await bellCount(page);
  await page.getByTestId("bell").click();
  await expect(page).toHaveURL(/\/notifications$/);
  const item = page.getByTestId("inbox-item").filter({ hasText: title });
  await expect(item).toHaveAttribute("data-read", "0");
  await shot(page, "notifications");
  await item.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/orders\?status=failed$/);
  await expectBell(page, before - 1);
  // And a fresh page counts the same, from the database.
  await page.reload();
  await expectBell(page, before - 1);
  await page.goto("/notifications");
  await expect(page.getByTestId("inbox-item").filter({ hasText: title })).toHaveAttribute("data-read", "1");
});

test("mark all read empties the bell", async ({ page }) => {
  await arrange("viewer@demo.local", "Wallet USD below $1,000.00: $812.40", "/wallet", false);
  await signInAs(page, "viewer");
  await page.goto("/notifications");
  await page.getByTestId("mark-all-read").click();
  await expect(page.getByTestId("bell-count")).toHaveCount(0);
  await expect(page.getByTestId("bell")).toHaveAccessibleName("Notifications, none unread");
});

test("local mode: an email of the outbox reaches the mail catcher, and admins read it with its link", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const title = `1 order failed: $12.50 (${randomUUID().slice(0, 6)})`;
  await arrange("buyer@demo.local", title, "/orders?status=failed", true);
  await signInAs(page, "admin");
  await expect
    .poll(
      async () => {
        await page.goto("/events/caught-mail");
        return page.getByRole("link", { name: title }).count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  await shot(page, "caught-mail");
  await page.getByRole("link", { name: title }).click();
  await expect(page.getByTestId("caught-headers")).toContainText("buyer@demo.local");
  await expect(page.getByTestId("caught-text")).toContainText(
    `Open: http://localhost:${new URL(page.url()).port}/orders?status=failed`,
  );
  await page.goto("/events/outbox?state=sent");
  await expect(page.getByTestId("outbox").getByRole("row").filter({ hasText: title })).toContainText("Sent");
  await shot(page, "outbox");
});

test("an admin sets the chat webhook: it is shown back only as a hint; a person saves quiet hours", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, "admin");
  await page.goto("/settings");
  const form = page.getByRole("form", { name: "Workspace notification settings" });
  await form.getByLabel(/Incoming-webhook URL/).fill("https://hooks.example.com/services/T0/B0/verysecretpart");
  await form
    .getByRole("group", { name: "Post to the chat channel" })
    .getByLabel("The wallet is below its low-balance threshold")
    .check();
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/settings/notifications"));
  await form.getByRole("button", { name: "Save" }).click();
  expect((await saved).status()).toBe(200);
  await page.reload();
  const field = page.getByRole("form", { name: "Workspace notification settings" }).getByLabel(/Incoming-webhook URL/);
  await expect(field).toHaveValue("");
  await expect(field).toHaveAttribute("placeholder", "Set: hooks.example.com/…part");
  expect(await page.content()).not.toContain("verysecretpart");
  await shot(page, "settings-notifications");

  await page.goto("/account/notifications");
  const mine = page.getByRole("form", { name: "Your notification settings" });
  await mine.getByLabel("Quiet hours from").fill("22:00");
  await mine.getByRole("button", { name: "Save" }).click();
  await expect(mine.getByText("Give both ends of the quiet hours, or neither.")).toBeVisible();
  await mine.getByLabel("Quiet hours until").fill("07:00");
  await mine.getByLabel("How", { exact: true }).selectOption("hourly");
  // The page comes with the chosen zone as the only option; the rest are there once the select is reached for.
  const zone = mine.getByLabel("Time zone");
  await expect(zone.locator("option")).toHaveCount(1);
  await zone.focus();
  expect(await zone.locator("option").count()).toBeGreaterThan(300);
  // UTC all year, as UTC is: the quiet hours of later specs fall where they did.
  await zone.selectOption("Atlantic/Reykjavik");
  await mine.getByRole("button", { name: "Save" }).click();
  await expect(mine.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Quiet hours until")).toHaveValue("07:00");
  await expect(page.getByLabel("How", { exact: true })).toHaveValue("hourly");
  await expect(page.getByLabel("Time zone")).toHaveValue("Atlantic/Reykjavik");
  await shot(page, "account-notifications");

  // Leave the workspace as it was for later specs.
  await page.goto("/settings");
  const again = page.getByRole("form", { name: "Workspace notification settings" });
  await again.getByLabel("Remove the webhook (no more chat messages)").check();
  await again
    .getByRole("group", { name: "Post to the chat channel" })
    .getByLabel("The wallet is below its low-balance threshold")
    .uncheck();
  await again.getByRole("button", { name: "Save" }).click();
  await expect(again.getByText("Saved.")).toBeVisible();
});
