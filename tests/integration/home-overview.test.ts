import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { waitingDecisions } from "@/lib/overview/waiting-decisions";
import { ordersNeedingSupport, STUCK_AFTER_MINUTES, STUCK_COUNT_CAP } from "@/lib/overview/orders-needing-support";
import { ordersToday } from "@/lib/overview/orders-today";
import { failedOrdersToRetry } from "@/lib/overview/failed-orders-to-retry";
import { makeStaff } from "../support/db";

// The home page's questions (lib/overview), against a migrated database. Each test works in
// a time of its own (`now` far from the present), so other files' rows never count.
const MIN = 60_000;
const tag = randomUUID().slice(0, 8);
let seq = 0;

async function order(o: { status: string; createdAt: Date; updatedAt?: Date; placedById?: string }) {
  seq += 1;
  const id = `ord_home_${tag}_${seq}`;
  await db().order.create({
    data: {
      id,
      clientReference: `home-${tag}-${seq}`,
      status: o.status,
      totalMinor: 1500n,
      currency: "USD",
      lines: [{ productId: "prd_home", productName: "Home Card", variantId: null, variantLabel: "", quantity: 1 }],
      upstreamCreatedAt: o.createdAt,
      upstreamUpdatedAt: o.updatedAt ?? o.createdAt,
      placedById: o.placedById ?? null,
    },
  });
  return id;
}

async function withdrawal(requestedById: string, requestedAt: Date, expiresAt: Date) {
  seq += 1;
  const id = `wr_home_${tag}_${seq}`;
  await db().withdrawalRequest.create({
    data: {
      id,
      amountMinor: 25_000n,
      currency: "USD",
      feeMinor: 100n,
      netMinor: 24_900n,
      quotedPayoutAt: expiresAt,
      reason: "Quarter end",
      requestedById,
      requestedAt,
      expiresAt,
    },
  });
  return id;
}

async function spendRequest(requestedById: string, requestedAt: Date, expiresAt: Date) {
  seq += 1;
  const id = `sr_home_${tag}_${seq}`;
  await db().spendRequest.create({
    data: {
      id,
      kind: "order",
      reason: "Promotion",
      why: "above the approval threshold",
      totals: { USD: "8000" },
      orderRequest: { clientReference: `home-spend-${seq}` },
      requestedById,
      requestedAt,
      expiresAt,
    },
  });
  return id;
}

describe("what waits for an approver", () => {
  test("others' withdrawals and spend requests, oldest first; never their own, never an expired or decided one", async () => {
    const now = new Date("2090-03-01T12:00:00.000Z");
    const at = (minutes: number) => new Date(now.getTime() + minutes * MIN);
    const approver = await makeStaff(["buyer", "approver"]);
    const finance = await makeStaff(["finance"]);
    const buyer = await makeStaff(["buyer"]);

    const oldWithdrawal = await withdrawal(finance.staffId, at(-300), at(600));
    const spend = await spendRequest(buyer.staffId, at(-120), at(60));
    const newWithdrawal = await withdrawal(finance.staffId, at(-5), at(900));
    await spendRequest(approver.staffId, at(-400), at(600)); // their own: never theirs to decide
    await withdrawal(finance.staffId, at(-500), at(-1)); // expired, not yet marked so
    const decided = await spendRequest(buyer.staffId, at(-450), at(600));
    await db().spendRequest.update({ where: { id: decided }, data: { state: "rejected", decidedById: approver.staffId } });

    const waiting = await waitingDecisions(approver, now);
    expect(waiting.items.map((i) => i.id)).toEqual([oldWithdrawal, spend, newWithdrawal]);
    expect(waiting).toMatchObject({ total: 3, withdrawals: 2, spendRequests: 1 });
    expect(waiting.items[0]).toMatchObject({
      kind: "withdrawal",
      title: "Withdrawal of $250.00",
      requestedBy: finance.name,
      expiresAt: at(600).toISOString(),
    });
    expect(waiting.items[1]).toMatchObject({
      kind: "spend",
      title: `Order home-spend-${seq - 4} · $80.00`,
      href: "/spend-approvals",
    });

    // The buyer who asked sees nothing to decide: their role decides nothing, and it is their own.
    expect((await waitingDecisions(buyer, now)).total).toBe(0);
  });
});

describe("orders that need support", () => {
  test(`stuck means not final ${STUCK_AFTER_MINUTES} minutes after it was placed; failed means failed in the last day`, async () => {
    const now = new Date("2001-06-01T12:00:00.000Z");
    const ago = (minutes: number) => new Date(now.getTime() - minutes * MIN);
    const support = await makeStaff(["support"]);

    const stuckLong = await order({ status: "processing", createdAt: ago(180) });
    const stuckJust = await order({ status: "reserved", createdAt: ago(STUCK_AFTER_MINUTES + 1) });
    await order({ status: "reserved", createdAt: ago(STUCK_AFTER_MINUTES - 1) }); // still within its time
    await order({ status: "fulfilled", createdAt: ago(120) });
    const failedRecently = await order({ status: "failed", createdAt: ago(30 * 60), updatedAt: ago(120) });
    await order({ status: "failed", createdAt: ago(30 * 60), updatedAt: ago(25 * 60) }); // failed before the last day

    const { stuck, failed } = await ordersNeedingSupport(support, now);
    expect(stuck.count).toBe(2);
    expect(stuck.items.map((o) => o.id)).toEqual([stuckLong, stuckJust]);
    expect(failed.count).toBe(1);
    expect(failed.items.map((o) => o.id)).toEqual([failedRecently]);
  });
});

describe("many stuck orders", () => {
  test("the oldest are those the plain query finds, ties by id, and the count stops at the cap", async () => {
    // In 1990, before any other test's orders, and removed after: the stuck list has no lower bound.
    const now = new Date("1990-06-01T12:00:00.000Z");
    const support = await makeStaff(["support"]);
    const prefix = `ord_stuck_${tag}_`;
    await db().order.createMany({
      data: Array.from({ length: STUCK_COUNT_CAP + 5 }, (_, i) => {
        // Three orders an instant, so that the oldest few tie and the id decides.
        const createdAt = new Date(now.getTime() - (1_000 - Math.floor(i / 3)) * MIN);
        return {
          id: `${prefix}${String((i * 7919) % 10_000).padStart(4, "0")}`,
          clientReference: `stuck-${tag}-${i}`,
          status: i % 2 === 0 ? "processing" : "reserved",
          totalMinor: 100n,
          currency: "USD",
          lines: [],
          upstreamCreatedAt: createdAt,
          upstreamUpdatedAt: createdAt,
        };
      }),
    });
    try {
      const { stuck } = await ordersNeedingSupport(support, now);
      const plain = await db().order.findMany({
        where: {
          status: { in: ["reserved", "processing"] },
          upstreamCreatedAt: { lt: new Date(now.getTime() - STUCK_AFTER_MINUTES * MIN) },
        },
        orderBy: [{ upstreamCreatedAt: "asc" }, { id: "asc" }],
        take: 5,
        select: { id: true },
      });
      expect(stuck.items.map((o) => o.id)).toEqual(plain.map((o) => o.id));
      expect(stuck.items.map((o) => o.status)).toContain("reserved");
      expect(stuck.items.map((o) => o.status)).toContain("processing");
      expect(stuck).toMatchObject({ count: STUCK_COUNT_CAP, capped: true });
    } finally {
      await db().order.deleteMany({ where: { id: { startsWith: prefix } } });
    }
  });
});

describe("a buyer's day", () => {
  test("today's own orders counted by state (yesterday's and others' left out); failed ones of the week to order again", async () => {
    const buyer = await makeStaff(["buyer"]);
    const other = await makeStaff(["buyer"]);
    const now = new Date();
    const midnight = new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
    const today = (ms: number) => new Date(Math.min(now.getTime(), midnight.getTime() + ms));
    const me = buyer.staffId;

    await order({ status: "fulfilled", createdAt: today(0), placedById: me });
    await order({ status: "fulfilled", createdAt: today(1000), placedById: me });
    const failedToday = await order({ status: "failed", createdAt: today(2000), placedById: me });
    await order({ status: "processing", createdAt: today(3000), placedById: me });
    const yesterday = await order({ status: "failed", createdAt: new Date(midnight.getTime() - 3_600_000), placedById: me });
    await order({ status: "failed", createdAt: new Date(midnight.getTime() - 8 * 86_400_000), placedById: me }); // older than a week
    await order({ status: "fulfilled", createdAt: today(500), placedById: other.staffId });

    const day = await ordersToday(buyer, now);
    expect(day.total).toBe(4);
    expect(day.byStatus).toEqual([
      { status: "processing", count: 1 },
      { status: "fulfilled", count: 2 },
      { status: "failed", count: 1 },
    ]);
    expect(day.latest).toHaveLength(4);

    const failed = await failedOrdersToRetry(buyer, now);
    expect(failed.count).toBe(2);
    expect(failed.items.map((o) => o.id)).toEqual([failedToday, yesterday]);
    expect(failed.items[0]!.productId).toBe("prd_home");
  });
});
