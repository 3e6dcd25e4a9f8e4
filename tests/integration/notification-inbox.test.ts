import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { recordNotification } from "@/lib/notifications/notify";
import { listInbox, markAllRead, markRead } from "@/lib/notifications/inbox";
import { unreadCount } from "@/lib/notifications/unread-count";
import { savePreferences } from "@/lib/notifications/save-preferences";
import { readMyChoices, readWorkspaceChoices } from "@/lib/notifications/read-choices";
import { updateWorkspaceNotifications } from "@/lib/notifications/update-workspace-notifications";
import { DEFAULT_WORKSPACE_NOTIFICATIONS } from "@/lib/notifications/workspace-settings";
import { listOutbox } from "@/lib/notifications/outbox";
import { pruneNotifications } from "@/lib/notifications/prune";
import { problemFromError } from "@/lib/http/problem";
import { makeStaff } from "../support/db";
import { INSIDE_WEBHOOK_URLS } from "../support/notifications";

async function notifyOne(staffId: string, title: string) {
  await db().$transaction((tx) =>
    recordNotification(tx, {
      kind: "orders.failed",
      eventKey: `test:${randomUUID()}`,
      title,
      link: "/orders",
      audience: { staffIds: [staffId] },
    }),
  );
}

describe("the in-app inbox", () => {
  test("the bell counts one's unread; reading one and then all brings it to zero", async () => {
    const buyer = await makeStaff(["buyer"]);
    await notifyOne(buyer.staffId, "1 order failed: $10.00");
    await notifyOne(buyer.staffId, "2 orders failed: $20.00");
    expect(await unreadCount(buyer.staffId)).toBe(2);
    const { items } = await listInbox(buyer);
    expect(items.map((i) => i.title)).toEqual(["2 orders failed: $20.00", "1 order failed: $10.00"]);
    await markRead(buyer, items[0]!.id);
    expect(await unreadCount(buyer.staffId)).toBe(1);
    expect((await listInbox(buyer, { unreadOnly: true })).items.map((i) => i.title)).toEqual(["1 order failed: $10.00"]);
    expect(await markAllRead(buyer)).toEqual({ marked: 1 });
    expect(await unreadCount(buyer.staffId)).toBe(0);
  });

  test("pages of the inbox hold every notification once, even those of one instant", async () => {
    const person = await makeStaff(["buyer"]);
    const at = new Date("2026-11-27T10:00:00.000Z");
    for (let i = 0; i < 45; i++) {
      const event = await db().notificationEvent.create({
        data: { eventKey: `test:${randomUUID()}`, kind: "orders.failed", title: `n${i}`, link: "/orders" },
      });
      await db().notification.create({ data: { eventId: event.id, staffId: person.staffId, createdAt: at } });
    }
    const first = await listInbox(person);
    const second = await listInbox(person, { before: first.next ?? undefined });
    expect(first.items).toHaveLength(30);
    expect(second.next).toBeNull();
    expect(new Set([...first.items, ...second.items].map((i) => i.title)).size).toBe(45);
  });

  test("nobody marks another person's notification read", async () => {
    const [owner, other] = [await makeStaff(["buyer"]), await makeStaff(["buyer"])];
    await notifyOne(owner.staffId, "1 order failed: $5.00");
    const [item] = (await listInbox(owner)).items;
    await expect(markRead(other, item!.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(markRead(other, "not-an-id")).rejects.toMatchObject({ code: "not_found" });
    expect(await unreadCount(owner.staffId)).toBe(1);
  });
});

describe("choices", () => {
  test("a person's own choices replace the workspace's defaults", async () => {
    const person = await makeStaff(["finance"]);
    expect((await readMyChoices(person)).own).toBe(false);
    await savePreferences(person, {
      emailKinds: ["wallet.low_balance"],
      digest: "daily",
      quietStart: "21:30",
      quietEnd: "06:45",
      timeZone: "Europe/Paris",
    });
    expect(await readMyChoices(person)).toEqual({
      own: true,
      choices: {
        emailKinds: ["wallet.low_balance"],
        digest: "daily",
        quietStart: "21:30",
        quietEnd: "06:45",
        timeZone: "Europe/Paris",
      },
    });
  });

  test("bad choices are field errors and change nothing", async () => {
    const person = await makeStaff(["finance"]);
    const error = await savePreferences(person, {
      emailKinds: ["nope"],
      digest: "weekly",
      quietStart: "25:00",
      quietEnd: "",
      timeZone: "Nowhere",
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_request" });
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors).sort()).toEqual([
      "digest",
      "emailKinds.0",
      "quietStart",
      "timeZone",
    ]);
    expect((await readMyChoices(person)).own).toBe(false);
  });

  test("only admins change the workspace's notifications or read the outbox; a bad webhook URL is refused", async () => {
    const valid = { emailKinds: ["orders.failed"], digest: "off", quietStart: "", quietEnd: "", timeZone: "UTC", chatKinds: [] };
    for (const role of ["buyer", "support", "finance", "approver", "viewer"]) {
      const person = await makeStaff([role]);
      await expect(updateWorkspaceNotifications(person, valid)).rejects.toMatchObject({ code: "forbidden" });
      await expect(listOutbox(person)).rejects.toMatchObject({ code: "forbidden" });
    }
    const admin = await makeStaff(["admin"]);
    for (const chatWebhookUrl of ["http://hooks.example.com/x", "javascript:alert(1)", "https://user:pw@hooks.example.com/x"])
      await expect(updateWorkspaceNotifications(admin, { ...valid, chatWebhookUrl })).rejects.toMatchObject({
        code: "invalid_request",
        fieldErrors: { chatWebhookUrl: expect.any(Array) },
      });
    expect((await readWorkspaceChoices(admin)).chatWebhookHint).toBeNull();
    // A field this form does not have (a typo, an old client) is refused by name, not dropped with "Saved".
    await expect(updateWorkspaceNotifications(admin, { ...valid, chatKind: ["orders.failed"] })).rejects.toMatchObject({
      code: "invalid_request",
      fieldErrors: { _: [expect.stringContaining("chatKind")] },
    });
    expect((await listOutbox(admin)).counts).toEqual(
      expect.objectContaining({ failed: expect.any(Number), sent: expect.any(Number) }),
    );
  });
  test("a webhook URL on this machine, a private network or a metadata service is refused with a field message", async () => {
    const valid = { emailKinds: ["orders.failed"], digest: "off", quietStart: "", quietEnd: "", timeZone: "UTC", chatKinds: [] };
    const admin = await makeStaff(["admin"]);
    for (const chatWebhookUrl of INSIDE_WEBHOOK_URLS) {
      const refusal = await updateWorkspaceNotifications(admin, { ...valid, chatWebhookUrl }).catch((error: unknown) => error);
      expect(refusal, chatWebhookUrl).toMatchObject({
        code: "invalid_request",
        fieldErrors: { chatWebhookUrl: [expect.any(String)] },
      });
      expect(problemFromError(refusal).status, chatWebhookUrl).toBe(400);
    }
    expect((await readWorkspaceChoices(admin)).chatWebhookHint).toBeNull();
    await updateWorkspaceNotifications(admin, { ...valid, chatWebhookUrl: "https://hooks.slack.com/services/T0/B0/x" });
    expect((await readWorkspaceChoices(admin)).chatWebhookHint).toBe("hooks.slack.com/…B0/x");
    // The workspace's defaults back as they were: later files count on every kind being emailed.
    const { emailKinds, digest, timeZone } = DEFAULT_WORKSPACE_NOTIFICATIONS;
    await updateWorkspaceNotifications(admin, { ...valid, emailKinds, digest, timeZone, chatWebhookUrl: "" });
  });
});

describe("upkeep", () => {
  test("finished deliveries leave the outbox after 30 days and caught mail after 14; failed ones and the inbox stay", async () => {
    const person = await makeStaff(["buyer"]);
    await notifyOne(person.staffId, "1 order failed: $1.00");
    const old = new Date(Date.now() - 31 * 86_400_000);
    const [delivery] = await db().notificationDelivery.findMany({ where: { staffId: person.staffId } });
    await db().notificationDelivery.update({ where: { id: delivery!.id }, data: { status: "sent", updatedAt: old } });
    await notifyOne(person.staffId, "2 orders failed: $2.00");
    await db().notificationDelivery.updateMany({
      where: { staffId: person.staffId, status: "pending" },
      data: { status: "failed", updatedAt: old },
    });
    const mail = await db().caughtMail.create({ data: { from: "a@x", to: ["b@x"], subject: "s", text: "t", receivedAt: old } });
    await pruneNotifications();
    expect(await db().notificationDelivery.findMany({ where: { staffId: person.staffId }, select: { status: true } })).toEqual([
      { status: "failed" },
    ]);
    expect(await db().caughtMail.count({ where: { id: mail.id } })).toBe(0);
    expect(await unreadCount(person.staffId)).toBe(2);
  });
});
