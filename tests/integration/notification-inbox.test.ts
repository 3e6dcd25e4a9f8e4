import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import { listInbox, markAllRead, markRead } from "@/lib/notifications/inbox";
import { unreadCount } from "@/lib/notifications/unread-count";
import { savePreferences } from "@/lib/notifications/save-preferences";
import { readMyChoices, readWorkspaceChoices } from "@/lib/notifications/read-choices";
import { updateWorkspaceNotifications } from "@/lib/notifications/update-workspace-notifications";
import { listOutbox } from "@/lib/notifications/outbox";
import { makeStaff } from "../support/db";

async function notifyOne(staffId: string, title: string) {
  await db().$transaction((tx) =>
    notify(tx, {
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
    expect((await listOutbox(admin)).counts).toEqual(
      expect.objectContaining({ failed: expect.any(Number), sent: expect.any(Number) }),
    );
  });
});
