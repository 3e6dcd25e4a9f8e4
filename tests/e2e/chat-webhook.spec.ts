import { expect, test, type Page } from "@playwright/test";
import { createServer, type Server } from "node:http";
import { E2E_CHAT_PORT } from "../../playwright.config";
import { addStaff, askForApproval, putSettings, shots, signedInPage, withDb } from "./helpers";
import { findProduct, sandboxControl } from "./sandbox";
import { expectNoAxeViolations } from "./axe";

// Issue 50, item 3.5: an admin checks the chat webhook from Settings, and a webhook whose
// messages fail says so beside it and on the admin home, in words, with when it last failed.
// The chat service is a receiver of this spec's own on loopback; the workspace's notification
// settings are put back as they were after it.
const BUYER = "chat-buyer@demo.local";

let receiver: Server;
let hookUrl = "";
let answers: number[] = [];
const posts: { text: string }[] = [];
let savedSettings: unknown = null;

test.beforeAll(async () => {
  await addStaff(BUYER, "Chad Chat", ["buyer"]);
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      posts.push(JSON.parse(body) as { text: string });
      const status = answers.shift() ?? 200;
      response.writeHead(status).end(status === 200 ? "ok" : "no_service");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(E2E_CHAT_PORT, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${E2E_CHAT_PORT}/hooks/T0E2E/B0E2E/e2echat`;
  savedSettings = await withDb(
    async (db) => (await db.query(`SELECT value FROM "Setting" WHERE key = 'notifications'`)).rows[0]?.value ?? null,
  );
});

test.afterAll(async () => {
  await withDb((db) =>
    savedSettings === null
      ? db.query(`DELETE FROM "Setting" WHERE key = 'notifications'`)
      : db.query(`UPDATE "Setting" SET value = $1 WHERE key = 'notifications'`, [JSON.stringify(savedSettings)]),
  );
  await new Promise((resolve) => receiver.close(resolve));
});

const axe = (page: Page, where: string) => expectNoAxeViolations(page, `${where}: axe`, { soft: true });

test("an admin sends a test message from Settings; a webhook that fails says so on Settings and the admin home", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await signedInPage(browser, "admin");
  await admin.goto("/settings#notifications");
  const chat = admin.getByRole("group", { name: "Chat channel" });
  await chat.getByLabel(/Incoming-webhook URL/).fill(hookUrl);
  await chat.getByRole("checkbox", { name: /An approval is waiting/ }).check();
  const form = admin.getByRole("form", { name: "Workspace notification settings" });
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("Saved.")).toBeVisible();

  // The test message reaches the channel, and is audited.
  const audited = () =>
    withDb(
      async (db) =>
        (await db.query(`SELECT count(*)::int AS n FROM "AuditEvent" WHERE action = 'notification.chat_test'`)).rows[0]
          .n as number,
    );
  const auditedBefore = await audited();
  await chat.getByRole("button", { name: "Send a test message" }).click();
  await expect(chat.getByTestId("chat-test-result")).toHaveText("Sent: look for it in the channel.");
  expect(posts.at(-1)?.text).toContain("Test message from the back office");
  expect(await audited()).toBe(auditedBefore + 1);

  // A test the service refuses says why, there and then.
  answers = [404];
  await chat.getByRole("button", { name: "Send a test message" }).click();
  await expect(chat.getByTestId("chat-test-result")).toContainText(
    "Not sent. The chat service says this webhook does not exist (404)",
  );

  // The channel's own traffic fails: an approval waiting, posted while the service answers 404.
  const product = await findProduct(
    (p) => p.isAvailable && p.type === "gift-card" && p.variants.length > 0 && p.currency === "USD" && p.variants[0]!.price < 40,
  );
  await sandboxControl("PUT", "/wallet", { balances: { USD: 1_000_000 } });
  await putSettings(admin, { spendApprovalAmount: (product.variants[0]!.price * 1.5).toFixed(2) });
  try {
    const buyer = await signedInPage(browser, BUYER);
    const reference = `e2e-chat-${Date.now()}`;
    answers = [404, 404, 404];
    await askForApproval(buyer, product, { reference, reason: "Chat check" });
    await buyer.context().close();
  } finally {
    await putSettings(admin, { spendApprovalAmount: "" });
  }

  const failing = admin.getByTestId("chat-webhook-failing");
  await expect
    .poll(
      async () => {
        await admin.reload(); // (a goto to the same page and #anchor would only scroll)
        return failing.count();
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(1);
  await expect(failing).toContainText(/Chat messages are failing: the last one failed at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(failing).toContainText("does not exist (404): it was probably deleted. Create a new incoming webhook");
  await axe(admin, "Settings with a failing chat webhook");
  await shots(admin, "settings-chat-failing");

  await admin.goto("/");
  const home = admin.getByTestId("home-admin-chat");
  await expect(home).toContainText("Chat notifications are failing");
  await expect(home).toContainText(
    /The last message failed at \d{4}-\d\d-\d\d \d\d:\d\d UTC\. The chat service says this webhook does not exist/,
  );
  await expect(home.getByRole("link", { name: /Chat channel/ })).toHaveAttribute("href", "/settings#notifications");
  await axe(admin, "the admin home with a failing chat webhook");
  await shots(admin, "home-chat-failing");
});
