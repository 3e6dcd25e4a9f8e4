import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { notify, recordNotification } from "@/lib/notifications/notify";
import { KIND_DEFINITIONS, NOTIFICATION_KINDS } from "@/lib/notifications/kinds";
import { ROLES } from "@/lib/auth/permissions";
import { makeStaff } from "../support/db";

const key = (name: string) => `test:${name}:${randomUUID()}`;

async function inboxOf(staffId: string, eventKey: string) {
  return db().notification.findMany({ where: { staffId, event: { eventKey } } });
}
async function emailsFor(eventKey: string) {
  return db().notificationDelivery.findMany({ where: { event: { eventKey }, channel: "email" } });
}

describe("notify() records a notification with the event that causes it", () => {
  test("the kind's default role hears of it, except the requester and inactive staff", async () => {
    const [requester, approver, other, gone] = [
      await makeStaff(["approver", "buyer"]),
      await makeStaff(["approver"]),
      await makeStaff(["buyer"]),
      await makeStaff(["approver"], { active: false }),
    ];
    const eventKey = key("waiting");
    await db().$transaction((tx) =>
      recordNotification(tx, {
        kind: "approval.waiting",
        eventKey,
        title: "Spend request: 3 × Blue Harbor Coffee $100.00 — $300.00",
        link: "/spend-approvals",
        audience: { exceptStaffIds: [requester.staffId] },
      }),
    );
    expect(await inboxOf(approver.staffId, eventKey)).toHaveLength(1);
    for (const person of [requester, other, gone]) expect(await inboxOf(person.staffId, eventKey)).toHaveLength(0);
    const emails = await emailsFor(eventKey);
    expect(emails.filter((e) => e.staffId === approver.staffId)).toMatchObject([{ status: "pending", attempts: 0 }]);
    expect(emails.some((e) => [requester, other, gone].some((p) => p.staffId === e.staffId))).toBe(false);
  });

  test("recording the same event twice records nothing new", async () => {
    const buyer = await makeStaff(["buyer"]);
    const eventKey = key("decided");
    const event = {
      kind: "approval.decided" as const,
      eventKey,
      title: "Your spend request was approved",
      link: "/spend-approvals",
      audience: { staffIds: [buyer.staffId] },
    };
    await db().$transaction((tx) => recordNotification(tx, event));
    await db().$transaction((tx) => recordNotification(tx, event));
    expect(await inboxOf(buyer.staffId, eventKey)).toHaveLength(1);
    expect(await emailsFor(eventKey)).toHaveLength(1);
  });

  test("a rolled-back event leaves no notification behind", async () => {
    const buyer = await makeStaff(["buyer"]);
    const eventKey = key("rolled-back");
    await expect(
      db().$transaction(async (tx) => {
        await recordNotification(tx, {
          kind: "orders.failed",
          eventKey,
          title: "2 orders failed",
          link: "/orders",
          audience: { staffIds: [buyer.staffId] },
        });
        throw new Error("the event failed");
      }),
    ).rejects.toThrow("the event failed");
    expect(await db().notificationEvent.count({ where: { eventKey } })).toBe(0);
    expect(await inboxOf(buyer.staffId, eventKey)).toHaveLength(0);
  });

  test("a producer's payload that does not fit its kind fails the event and records nothing", async () => {
    await makeStaff(["finance"]);
    const currency = `T${randomUUID().slice(0, 2).toUpperCase()}`;
    // An amount as text, as a careless producer might pass it: the kind's schema wants minor units.
    const unfit = { currency, availableMinor: "812.40", thresholdMinor: 100_000n, episode: 1 } as unknown as Parameters<
      typeof notify<"wallet.low_balance">
    >[2];
    await expect(db().$transaction((tx) => notify(tx, "wallet.low_balance", unfit))).rejects.toThrow();
    expect(await db().notificationEvent.count({ where: { eventKey: `wallet.low_balance:${currency}:1` } })).toBe(0);
  });

  test("a person who does not take a kind by email still sees it in the app", async () => {
    const finance = await makeStaff(["finance"]);
    await db().notificationPreference.create({
      data: { staffId: finance.staffId, emailKinds: ["reconciliation.difference"], digest: "off", timeZone: "UTC" },
    });
    const eventKey = key("low");
    await db().$transaction((tx) =>
      recordNotification(tx, {
        kind: "wallet.low_balance",
        eventKey,
        title: "Wallet USD below $1,000.00: $812.40",
        link: "/wallet",
        audience: { staffIds: [finance.staffId] },
      }),
    );
    expect(await inboxOf(finance.staffId, eventKey)).toHaveLength(1);
    expect(await emailsFor(eventKey)).toHaveLength(0);
  });

  test("each kind reaches exactly the roles its row of the table names, whoever a producer names", async () => {
    const people = await Promise.all(ROLES.map(async (role) => ({ role, ...(await makeStaff([role])) })));
    for (const kind of NOTIFICATION_KINDS) {
      const { roles, to } = KIND_DEFINITIONS[kind];
      // Named: everyone is named, and only the table's roles may hear.
      const named = key(`${kind}:named`);
      await db().$transaction((tx) =>
        recordNotification(tx, {
          kind,
          eventKey: named,
          title: kind,
          link: "/",
          audience: { staffIds: people.map((p) => p.staffId) },
        }),
      );
      // By role: nobody is named; a kind sent to named people reaches nobody then.
      const byRole = key(`${kind}:roles`);
      await db().$transaction((tx) => recordNotification(tx, { kind, eventKey: byRole, title: kind, link: "/" }));
      for (const person of people) {
        const expected = roles.includes(person.role) ? 1 : 0;
        expect({ kind, role: person.role, named: (await inboxOf(person.staffId, named)).length }).toEqual({
          kind,
          role: person.role,
          named: expected,
        });
        expect({ kind, role: person.role, byRole: (await inboxOf(person.staffId, byRole)).length }).toEqual({
          kind,
          role: person.role,
          byRole: to === "roles" ? expected : 0,
        });
      }
    }
  });
});
