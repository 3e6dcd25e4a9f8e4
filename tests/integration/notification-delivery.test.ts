import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createServer, type Server } from "node:http";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { recordNotification, type NotificationEvent } from "@/lib/notifications/notify";
import { notificationJobs } from "@/lib/notifications/jobs";
import { DELIVERY_QUEUE } from "@/lib/notifications/delivery-queue";
import { listOutbox } from "@/lib/notifications/outbox";
import { adoptDeliveries } from "@/lib/notifications/adopt-deliveries";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { collectDigests } from "@/lib/notifications/collect-digests";
import { closeMailTransports } from "@/lib/notifications/send-email";
import { startMailCatcher, type CaughtMessage, type MailCatcher } from "@/lib/notifications/mail-catcher";
import { updateWorkspaceNotifications } from "@/lib/notifications/update-workspace-notifications";
import { retryDelivery } from "@/lib/notifications/retry-delivery";
import { sendChatTest } from "@/lib/notifications/send-chat-test";
import { readChatWebhookHealth } from "@/lib/notifications/chat-health";
import { DEFAULT_WORKSPACE_NOTIFICATIONS } from "@/lib/notifications/workspace-settings";
import { localClock } from "@/lib/notifications/quiet-hours";
import { makeStaff } from "../support/db";
import { eventually } from "../support/sandbox";
import { deliveryJobsIdle, moveDeliveryQueueTo, crashDeliveryJob } from "../support/notifications";

/**
 * The outbox against real parts: an SMTP server (the app's own mail catcher, smtp-server)
 * and an HTTP chat receiver, both on loopback, sent by a worker running the notification jobs.
 * Time is driven by moving the delivery queue's clock (moveDeliveryQueueTo), so a backoff of
 * minutes takes no real waiting.
 */
const SMTP_PORT = Number(process.env.NOTIFY_TEST_SMTP_PORT ?? 4683);
const CHAT_PORT = Number(process.env.NOTIFY_TEST_CHAT_PORT ?? 4684);
const SMTP_URL = `smtp://127.0.0.1:${SMTP_PORT}`;
const ORIGIN = "http://localhost:3000"; // APP_URL's default in the tests
// The chat receiver is on loopback, which outgoing webhooks reach only when the deployment lists it.
process.env.OUTGOING_WEBHOOK_ALLOW_HOSTS = `127.0.0.1:${CHAT_PORT}`;
process.env.SMTP_URL = SMTP_URL;

let caught: CaughtMessage[] = [];
let refuse: (to: string[]) => { code: number; message: string } | null = () => null;
let catcher: MailCatcher | null = null;
const startCatcher = async () => {
  catcher = await startMailCatcher({ port: SMTP_PORT, onMail: (m) => void caught.push(m), refuse: ({ to }) => refuse(to) });
};
const stopCatcher = async () => {
  await catcher?.stop();
  catcher = null;
};

let chatPosts: { text: string; blocks?: unknown }[] = [];
let chatAnswers: number[] = [];
let chatDelayMs = 0;
let chatServer: Server;
let worker: Worker;
const startSending = async () => {
  worker = await startWorker(notificationJobs, { periodic: false });
};

beforeAll(async () => {
  await startCatcher();
  await startSending();
  chatServer = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const status = chatAnswers.shift() ?? 200;
      chatPosts.push({ ...(JSON.parse(body) as { text: string }), status } as never);
      // A 429 asks for ten minutes, longer than the queue's first waits.
      const headers = status === 429 ? { "retry-after": "600" } : {};
      setTimeout(() => response.writeHead(status, headers).end(status === 200 ? "ok" : "no"), chatDelayMs);
    });
  });
  await new Promise<void>((resolve) => chatServer.listen(CHAT_PORT, "127.0.0.1", resolve));
});

afterAll(async () => {
  const admin = await makeStaff(["admin"]);
  await updateWorkspaceNotifications(admin, { ...choicesOf(DEFAULT_WORKSPACE_NOTIFICATIONS), chatKinds: [], chatWebhookUrl: "" });
  await worker.stop();
  closeMailTransports();
  await stopCatcher();
  await new Promise((resolve) => chatServer.close(resolve));
});

beforeEach(() => {
  caught = [];
  chatPosts = [];
  chatAnswers = [];
  chatDelayMs = 0;
  refuse = () => null;
});

function choicesOf(settings: typeof DEFAULT_WORKSPACE_NOTIFICATIONS) {
  return {
    emailKinds: settings.emailKinds,
    digest: settings.digest,
    quietStart: "",
    quietEnd: "",
    timeZone: settings.timeZone,
    chatKinds: settings.chatKinds,
  };
}

/** An admin who set the chat webhook to this receiver at `/hooks/<path>`, for stuck imports. */
async function chatOfStuckImports(path: string) {
  const admin = await makeStaff(["admin"]);
  await updateWorkspaceNotifications(admin, {
    ...choicesOf(DEFAULT_WORKSPACE_NOTIFICATIONS),
    chatKinds: ["import.stuck"],
    chatWebhookUrl: `http://127.0.0.1:${CHAT_PORT}/hooks/${path}`,
  });
  return admin;
}

/** The worker sends, at `now`, every delivery due by then, and nothing is left in hand. */
async function drain(now: Date): Promise<void> {
  await moveDeliveryQueueTo(now);
  await deliveryJobsIdle();
}

const later = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000);
const to = (email: string) => caught.filter((m) => m.to.includes(email));
const open = async (staffId: string) =>
  (await db().notificationDelivery.count({ where: { staffId, status: { in: ["pending", "sending"] } } })) > 0;
const deadLettered = async (deliveryId: string) =>
  db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${`${DELIVERY_QUEUE.name}.dead`} AND data->>'deliveryId' = ${deliveryId}`.then(
    (rows) => rows[0]?.n ?? 0,
  );

async function record(event: NotificationEvent): Promise<void> {
  await db().$transaction((tx) => recordNotification(tx, event));
}

function event(staffId: string, title: string, overrides: Partial<NotificationEvent> = {}): NotificationEvent {
  return {
    kind: "orders.failed",
    eventKey: `test:${randomUUID()}`,
    title,
    link: "/orders?status=failed",
    audience: { staffIds: [staffId] },
    ...overrides,
  };
}

describe("the outbox delivers email through SMTP", () => {
  test("an approver gets one email saying what and how much, with a link to the page; the requester gets none", async () => {
    const [requester, approver] = [await makeStaff(["buyer", "approver"]), await makeStaff(["approver"])];
    const title = "Spend request: 3 × Blue Harbor Coffee $100.00 — $300.00, asked by Bea Buyer";
    await record({
      kind: "approval.waiting",
      eventKey: `test:${randomUUID()}`,
      title,
      link: "/spend-approvals",
      audience: { staffIds: [requester.staffId, approver.staffId], exceptStaffIds: [requester.staffId] },
    });
    await drain(new Date());
    expect(to(requester.email)).toHaveLength(0);
    expect(to(approver.email)).toHaveLength(1);
    const mail = to(approver.email)[0]!;
    expect(mail.subject).toBe(title);
    expect(mail.text).toContain(`${ORIGIN}/spend-approvals`);
    expect(mail.html).toContain(`href="${ORIGIN}/spend-approvals"`);
    expect(mail.messageId).toMatch(/^<[0-9a-f]{40}@localhost>$/);
  });

  test("200 events while the SMTP server is down: once it is back, each arrives exactly once", async () => {
    const buyer = await makeStaff(["buyer"]);
    const start = new Date();
    await stopCatcher();
    for (let i = 0; i < 200; i++) await record(event(buyer.staffId, `Order ${i} failed: $${i}.00`));

    // Down for a minute: every attempt in it fails and is put back with a wait.
    await drain(start);
    await drain(later(start, 1));
    const waiting = await db().notificationDelivery.findMany({ where: { staffId: buyer.staffId } });
    expect(waiting).toHaveLength(200);
    expect(waiting.every((d) => d.status === "pending" && d.attempts >= 1 && d.lastError)).toBe(true);

    await startCatcher();
    await drain(later(start, 30));
    const mails = to(buyer.email);
    expect(mails).toHaveLength(200);
    expect(new Set(mails.map((m) => m.subject)).size).toBe(200);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(200);
    expect(await db().notificationDelivery.count({ where: { staffId: buyer.staffId, status: "sent" } })).toBe(200);

    await drain(later(start, 600)); // nothing is sent twice, however long the job keeps running
    expect(to(buyer.email)).toHaveLength(200);
  }, 240_000); // about 30 s alone on the embedded database: 200 events recorded, then sent

  test("a message refused once with 451 arrives on the retry; a 550 refusal is kept as failed with its reason", async () => {
    const [lucky, unknown] = [await makeStaff(["buyer"]), await makeStaff(["buyer"])];
    let refusedOnce = false;
    refuse = (rcpt) => {
      if (rcpt.includes(unknown.email)) return { code: 550, message: "5.1.1 mailbox unavailable" };
      if (rcpt.includes(lucky.email) && !refusedOnce) {
        refusedOnce = true;
        return { code: 451, message: "4.3.0 try again later" };
      }
      return null;
    };
    await record(event(lucky.staffId, "3 orders failed: $45.00"));
    await record(event(unknown.staffId, "1 order failed: $10.00"));
    const now = new Date();
    await drain(now);
    expect(to(lucky.email)).toHaveLength(0);
    const retrying = await db().notificationDelivery.findFirstOrThrow({ where: { staffId: lucky.staffId } });
    expect(retrying).toMatchObject({ status: "pending", attempts: 1 });
    expect(retrying.lastError).toContain("451");
    const failed = await db().notificationDelivery.findFirstOrThrow({ where: { staffId: unknown.staffId } });
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    expect(failed.lastError).toContain("550");

    await drain(later(now, 5));
    expect(to(lucky.email)).toHaveLength(1);
    expect(to(unknown.email)).toHaveLength(0);

    // The mailbox exists now: an admin sends the failed one again, audited; it arrives once.
    refuse = () => null;
    const admin = await makeStaff(["admin"]);
    await expect(retryDelivery(await makeStaff(["finance"]), failed.id)).rejects.toMatchObject({ code: "forbidden" });
    await expect(retryDelivery(admin, retrying.id)).rejects.toMatchObject({ code: "conflict" });
    await retryDelivery(admin, failed.id);
    expect(
      await db().auditEvent.count({ where: { action: "notification.retry", targetId: failed.id, actorId: admin.staffId } }),
    ).toBe(1);
    await drain(new Date());
    expect(to(unknown.email)).toHaveLength(1);
  });

  test("a delivery sent just before its worker died is sent again under the same Message-ID", async () => {
    const buyer = await makeStaff(["buyer"]);
    await record(event(buyer.staffId, "2 orders failed: $20.00"));
    const now = new Date();
    await drain(now);
    // The crash: sent, but the mark never written (the row stays sending, its job stays active
    // in the hands of a worker that is gone, until the job's 2 minutes run out).
    const delivery = await db().notificationDelivery.findFirstOrThrow({ where: { staffId: buyer.staffId } });
    await db().notificationDelivery.update({ where: { id: delivery.id }, data: { status: "sending" } });
    await crashDeliveryJob(delivery.id);
    await drain(later(now, 1));
    expect(to(buyer.email)).toHaveLength(1); // the job's expiry still holds
    await drain(later(now, 3));
    const copies = to(buyer.email);
    expect(copies).toHaveLength(2);
    expect(copies[1]!.messageId).toBe(copies[0]!.messageId);
  });
});

describe("deliveries from before they were jobs", () => {
  test("an email waiting in the outbox at the upgrade is sent once, by the worker's first look", async () => {
    const buyer = await makeStaff(["buyer"]);
    const eventKey = `test:${randomUUID()}`;
    const title = "6 orders failed: $60.00";
    const { id: eventId } = await db().notificationEvent.create({
      data: { eventKey, kind: "orders.failed", title, link: "/orders?status=failed" },
    });
    await db().notificationDelivery.create({
      data: {
        deliveryKey: `${eventKey}:email:${buyer.staffId}`,
        eventId,
        channel: "email",
        staffId: buyer.staffId,
        status: "pending",
        dueAt: new Date(),
      },
    });
    expect(await adoptDeliveries()).toEqual({ adopted: 1 });
    expect(await adoptDeliveries()).toEqual({ adopted: 0 }); // its job waits or runs: not queued twice
    await drain(new Date());
    expect(to(buyer.email).map((m) => m.subject)).toEqual([title]);
    expect(await adoptDeliveries()).toEqual({ adopted: 0 });
  });
});

describe("a delivery that never gets through", () => {
  test("is failed after 12 attempts with its last reason, on the admin's outbox, and its job is in the dead-letter queue", async () => {
    const buyer = await makeStaff(["buyer"]);
    const start = new Date();
    await stopCatcher();
    try {
      await record(event(buyer.staffId, "4 orders failed: $80.00"));
      // Each pass two hours after the last: past any backoff (pg-boss waits at most an hour).
      for (let hour = 0; hour <= 24 && (await open(buyer.staffId)); hour += 2) await drain(later(start, hour * 60));
    } finally {
      await startCatcher();
    }
    const delivery = await db().notificationDelivery.findFirstOrThrow({ where: { staffId: buyer.staffId } });
    expect(delivery).toMatchObject({ status: "failed", attempts: 12 });
    expect(delivery.lastError).toMatch(/^gave up after 12 attempts: .*ECONNREFUSED/);
    const { rows } = await listOutbox(await makeStaff(["admin"]), { state: "failed" });
    expect(rows.find((row) => row.id === delivery.id)).toMatchObject({ state: "failed", reason: delivery.lastError });
    await eventually(async () => (await deadLettered(delivery.id)) === 1);
    expect(to(buyer.email)).toHaveLength(0);
  }, 120_000);
});

describe("preferences decide when email goes", () => {
  test("a digest collects an hour's notifications into one email", async () => {
    const finance = await makeStaff(["finance"]);
    await db().notificationPreference.create({
      data: {
        staffId: finance.staffId,
        emailKinds: ["wallet.low_balance", "reconciliation.difference"],
        digest: "hourly",
        timeZone: "UTC",
      },
    });
    const titles = [
      "Wallet USD below $1,000.00: $812.40",
      "Reconciliation difference: $12.00",
      "Wallet EUR below €1,000.00: €640.00",
    ];
    for (const [i, title] of titles.entries())
      await record(
        event(finance.staffId, title, {
          kind: i === 1 ? "reconciliation.difference" : "wallet.low_balance",
          link: i === 1 ? "/wallet/reconciliation" : "/wallet",
        }),
      );
    const now = new Date();
    expect(await collectDigests({ now })).toMatchObject({ digests: 0 });
    await drain(now);
    expect(to(finance.email)).toHaveLength(0);

    expect(await collectDigests({ now: later(now, 61) })).toMatchObject({ digests: 1, carried: 3 });
    await drain(later(now, 61));
    const mails = to(finance.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Digest, 3 notifications: ${titles[0]} and 2 more`);
    for (const title of titles) expect(mails[0]!.text).toContain(title);
    expect(mails[0]!.text).toContain(`${ORIGIN}/wallet/reconciliation`);
    expect(await collectDigests({ now: later(now, 200) })).toMatchObject({ digests: 0 });
  });

  test("a digest leaves out an approval decided while it was held, and keeps one still waiting", async () => {
    const [buyer, approver] = [await makeStaff(["buyer"]), await makeStaff(["approver"])];
    await db().notificationPreference.create({
      data: { staffId: approver.staffId, emailKinds: ["approval.waiting"], digest: "hourly", timeZone: "UTC" },
    });
    const request = (id: string) => ({
      id,
      kind: "order",
      reason: "Spring campaign",
      why: "the total is above the approval threshold",
      totals: { USD: "5000" },
      requestedById: buyer.staffId,
      expiresAt: later(new Date(), 24 * 60),
    });
    const [decided, waiting] = [`sr_test${randomUUID()}`, `sr_test${randomUUID()}`];
    await db().spendRequest.createMany({ data: [request(decided), request(waiting)] });
    for (const id of [decided, waiting])
      await record({
        kind: "approval.waiting",
        eventKey: `approval.waiting:${id}`,
        title: `Order ${id} waits for your approval`,
        link: `/spend-approvals#${id}`,
        audience: { staffIds: [approver.staffId] },
      });
    await db().spendRequest.update({ where: { id: decided }, data: { state: "rejected", decidedAt: new Date() } });

    const now = later(new Date(), 61);
    expect(await collectDigests({ now })).toMatchObject({ digests: 1, carried: 1 });
    await drain(now);
    const [mail, ...more] = to(approver.email);
    expect(more).toHaveLength(0);
    expect(mail!.text).toContain(`Order ${waiting} waits`);
    expect(mail!.text).not.toContain(decided);
    const dropped = await db().notificationDelivery.findFirstOrThrow({
      where: { event: { eventKey: `approval.waiting:${decided}` } },
    });
    expect(dropped).toMatchObject({ status: "dropped", lastError: expect.stringContaining("no longer waiting") });
  });

  test("during quiet hours the email waits for their end; the in-app notification is there at once", async () => {
    const buyer = await makeStaff(["buyer"]);
    const now = new Date();
    const { minute } = localClock(now, "Asia/Tokyo");
    await db().notificationPreference.create({
      data: {
        staffId: buyer.staffId,
        emailKinds: ["orders.failed"],
        timeZone: "Asia/Tokyo",
        quietStart: (minute + 1410) % 1440,
        quietEnd: (minute + 90) % 1440,
      },
    });
    await record(event(buyer.staffId, "5 orders failed: $250.00"));
    expect(await db().notification.count({ where: { staffId: buyer.staffId, readAt: null } })).toBe(1);
    await drain(later(now, 80));
    expect(to(buyer.email)).toHaveLength(0);
    await drain(later(now, 91));
    expect(to(buyer.email)).toHaveLength(1);
  });
});

describe("the chat webhook", () => {
  test("gets only the kinds an admin chose, one message per event, retried after a 503", async () => {
    const admin = await makeStaff(["admin"]);
    await updateWorkspaceNotifications(admin, {
      ...choicesOf(DEFAULT_WORKSPACE_NOTIFICATIONS),
      chatKinds: ["wallet.low_balance"],
      chatWebhookUrl: `http://127.0.0.1:${CHAT_PORT}/hooks/T000/B000/secretpart`,
    });
    const [f1, f2] = [await makeStaff(["finance"]), await makeStaff(["finance"])];
    const low = event(f1.staffId, "Wallet USD below $1,000.00: $812.40", {
      kind: "wallet.low_balance",
      link: "/wallet",
      audience: { staffIds: [f1.staffId, f2.staffId] },
    });
    await record(low);
    await record(event(admin.staffId, "History import finished: 1,204 orders", { kind: "import.finished", link: "/settings" }));
    chatAnswers = [503];
    const now = new Date();
    await drain(now);
    expect(chatPosts).toHaveLength(1);
    const delivery = await db().notificationDelivery.findUniqueOrThrow({ where: { deliveryKey: `${low.eventKey}:chat` } });
    expect(delivery).toMatchObject({ status: "pending", lastError: "chat webhook answered 503" });

    await drain(later(now, 5));
    expect(chatPosts).toHaveLength(2);
    expect(chatPosts[1]!.text).toBe(`Wallet USD below $1,000.00: $812.40 — ${ORIGIN}/wallet`);
    expect(chatPosts.some((p) => p.text.includes("History import"))).toBe(false);
    expect(await db().notificationDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "sent" });

    chatAnswers = [404];
    await record(event(f1.staffId, "Wallet EUR below €1,000.00: €640.00", { kind: "wallet.low_balance", link: "/wallet" }));
    await drain(later(now, 10));
    const refused = await db().notificationDelivery.findFirstOrThrow({
      where: { channel: "chat", status: "failed" },
      orderBy: { createdAt: "desc" },
    });
    expect(refused.lastError).toBe("chat webhook answered 404");
  });

  test("deliveries a stopped worker did not send are sent later, each once", async () => {
    const admin = await chatOfStuckImports("slow");
    await drain(new Date()); // nothing else waiting
    chatPosts = [];
    chatDelayMs = 300; // slow answers: the worker stops with most of them not yet sent
    for (let i = 0; i < 8; i++)
      await record(
        event(admin.staffId, `History import stuck ${i}`, {
          kind: "import.stuck",
          link: "/settings",
          audience: { staffIds: [] },
        }),
      );
    await eventually(async () => chatPosts.length > 0);
    await worker.stop();
    expect(chatPosts.length).toBeLessThan(8);
    chatDelayMs = 0;
    await startSending();
    await drain(new Date());
    expect(chatPosts).toHaveLength(8);
    expect(new Set(chatPosts.map((p) => p.text)).size).toBe(8);
  });

  test("a 429 is tried again when its Retry-After says, not before", async () => {
    const admin = await chatOfStuckImports("busy");
    const now = new Date();
    await drain(now); // nothing else waiting
    chatPosts = [];
    chatAnswers = [429];
    const stuck = event(admin.staffId, "History import stuck: throttled", {
      kind: "import.stuck",
      link: "/settings",
      audience: { staffIds: [] },
    });
    await record(stuck);
    await drain(now);
    expect(chatPosts).toHaveLength(1);
    const delivery = await db().notificationDelivery.findUniqueOrThrow({ where: { deliveryKey: `${stuck.eventKey}:chat` } });
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastError: "chat webhook answered 429" });
    expect(delivery.dueAt.getTime() - now.getTime()).toBeGreaterThanOrEqual(600_000);

    await drain(later(now, 5)); // the queue's own backoff would have tried by now
    expect(chatPosts).toHaveLength(1);
    await drain(later(now, 11));
    expect(chatPosts).toHaveLength(2);
    expect(await db().notificationDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: "sent",
      attempts: 2,
    });
  });

  test("a test message reaches the webhook, audited; a failing webhook is told in words until a message gets through or another is set", async () => {
    const admin = await makeStaff(["admin"]);
    const setWebhook = (path: string) =>
      updateWorkspaceNotifications(admin, {
        ...choicesOf(DEFAULT_WORKSPACE_NOTIFICATIONS),
        chatKinds: ["import.stuck"],
        chatWebhookUrl: `http://127.0.0.1:${CHAT_PORT}/hooks/${path}`,
      });
    // The earlier tests' chat deliveries (some dated ahead by their clocks) are not this webhook's traffic.
    await db().notificationDelivery.deleteMany({ where: { channel: "chat" } });
    await setWebhook("T001/B001/first");

    expect(await sendChatTest(admin)).toEqual({ sent: true });
    expect(chatPosts).toHaveLength(1);
    expect(chatPosts[0]!.text).toContain("Test message from the back office");
    const audited = await db().auditEvent.findFirstOrThrow({
      where: { action: "notification.chat_test", actorId: admin.staffId },
    });
    expect(JSON.stringify(audited.details)).not.toContain("first"); // the hint's last four characters at most
    chatAnswers = [404];
    expect(await sendChatTest(admin)).toEqual({ sent: false, problem: expect.stringContaining("does not exist (404)") });
    expect((await readChatWebhookHealth(admin))?.failing).toBeNull(); // a test is not the channel's traffic

    const stuck = () =>
      record(
        event(admin.staffId, `History import stuck ${randomUUID()}`, {
          kind: "import.stuck",
          link: "/settings",
          audience: { staffIds: [] },
        }),
      );
    await stuck();
    chatAnswers = [404];
    await drain(new Date());
    const failing = (await readChatWebhookHealth(admin))?.failing;
    expect(failing).toMatchObject({ words: expect.stringContaining("does not exist (404)"), retrying: false });
    expect(Date.now() - new Date(failing!.at).getTime()).toBeLessThan(60_000);

    await stuck(); // the next one gets through: no longer failing
    await drain(new Date());
    expect((await readChatWebhookHealth(admin))?.failing).toBeNull();

    await stuck();
    chatAnswers = [503];
    await drain(new Date());
    expect((await readChatWebhookHealth(admin))?.failing).toMatchObject({
      retrying: true,
      words: expect.stringContaining("(503)"),
    });
    await setWebhook("T002/B002/second"); // another webhook: the old one's failures are not its own
    expect((await readChatWebhookHealth(admin))?.failing).toBeNull();
    await drain(later(new Date(), 60));
  });

  test("the stored webhook URL is sealed, and the audit row does not hold it", async () => {
    const admin = await makeStaff(["admin"]);
    const url = `http://127.0.0.1:${CHAT_PORT}/hooks/T111/B111/another-secret-part`;
    await updateWorkspaceNotifications(admin, { ...choicesOf(DEFAULT_WORKSPACE_NOTIFICATIONS), chatWebhookUrl: url });
    const stored = JSON.stringify(await db().setting.findUnique({ where: { key: "notifications" } }));
    expect(stored).not.toContain("another-secret-part");
    expect(stored).toContain("127.0.0.1:4684/…part".replace("4684", String(CHAT_PORT)));
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "settings.notifications", actorId: admin.staffId } });
    expect(JSON.stringify(audit.details)).not.toContain("secret");
  });
});
