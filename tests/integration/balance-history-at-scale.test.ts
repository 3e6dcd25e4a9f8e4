import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { fullHistory, getBalanceHistory } from "@/lib/wallet/get-balance-history";
import { balanceReadsSince } from "@/lib/wallet/record-balance-read";
import { sliceCuts, sliceOf } from "@/lib/wallet/balance-slices";
import { movementSlices } from "@/lib/wallet/movement-slices";
import { makeStaff } from "../support/db";

const DAY = 86_400_000;

/**
 * A busy month: more movements than the chart has points, so the chart is drawn from sums
 * per slice of time in SQL (lib/wallet/movement-slices.ts). It must be the very line that
 * reading every movement one by one draws.
 */
describe("the wallet chart of a busy month", () => {
  test("2,000 orders, refunds, failures, credits and withdrawals draw exactly the line read movement by movement", async () => {
    // A currency no other test uses, so that every movement of it is made here.
    const currency = "XBM";
    const finance = await makeStaff(["finance"]);
    const now = new Date(Math.floor(Date.now() / 1000) * 1000 + 417);
    const at = (msAgo: number) => new Date(now.getTime() - msAgo);
    const statuses = ["fulfilled", "fulfilled", "fulfilled", "failed", "refunded", "processing"];
    await db().order.createMany({
      data: Array.from({ length: 2000 }, (_, i) => {
        // Over 33 days, some before the chart's 30; a few at the same instant as a read.
        const created = at(i % 97 === 0 ? (i % 5) * 3_600_000 : Math.floor(((i * 7919) % 2000) * 0.0165 * DAY));
        const status = statuses[i % statuses.length]!;
        return {
          id: `ord_scale_${currency}_${i}`,
          clientReference: `scale-${i}`,
          status,
          totalMinor: BigInt(i % 50 === 0 ? 0 : 100 + ((i * 104_729) % 9_900)),
          currency,
          lines: [],
          upstreamCreatedAt: created,
          upstreamUpdatedAt: new Date(created.getTime() + (status === "refunded" ? 2 * DAY : 3_000)),
          createdAt: created,
          // Some failed long ago but only heard of now.
          updatedAt: status === "failed" && i % 4 === 0 ? at(60_000) : new Date(created.getTime() + 3_000),
        };
      }),
    });
    await db().walletCredit.createMany({
      data: Array.from({ length: 40 }, (_, i) => ({
        eventId: `evt_scale_${currency}_${i}`,
        amountMinor: 500_000n + BigInt(i),
        currency,
        occurredAt: at(i * 0.8 * DAY + 1234),
        createdAt: at(i * 0.8 * DAY + 1234),
      })),
    });
    const requester = await makeStaff(["finance"]);
    await db().withdrawalRequest.createMany({
      data: Array.from({ length: 6 }, (_, i) => ({
        id: `wd_scale_${currency}_${i}`,
        amountMinor: 70_000n + BigInt(i),
        currency,
        feeMinor: 100n,
        netMinor: 69_900n,
        quotedPayoutAt: now,
        reason: "scale test",
        state: i % 2 === 0 ? "cancelled" : "paid",
        requestedById: requester.staffId,
        expiresAt: now,
        sendStartedAt: at((i + 1) * 5 * DAY + 7_777_777),
        cancelledAt: i % 2 === 0 ? at((i + 1) * 5 * DAY - 3_333_333) : null,
        upstreamId: `wd_up_scale_${currency}_${i}`,
      })),
    });
    // Reads every few hours, one of them at the very instant of an order.
    await db().balanceRead.createMany({
      data: Array.from({ length: 200 }, (_, i) => ({
        currency,
        availableMinor: 90_000_000n + BigInt((i * 7919) % 100_000),
        readAt: at(i * 4 * 3_600_000),
      })),
    });
    const anchor = {
      readAt: now.toISOString(),
      items: [
        {
          currency,
          availableMinor: "91234500",
          reservedMinor: "0",
          pendingWithdrawalMinor: "0",
          totalMinor: "91234500",
          updatedAt: null,
        },
      ],
    };

    const history = await getBalanceHistory(finance, { currency }, anchor);

    const from = new Date(now.getTime() - 30 * DAY);
    const reads = await balanceReadsSince(currency, from);
    reads.push({ at: now, availableMinor: 91_234_500n });
    const since = reads[0] && reads[0].at < from ? reads[0].at : from;
    const expected = await fullHistory({ currency, since, from, now, reads });
    expect(history.points).toHaveLength(400);
    expect(history.points).toEqual(
      expected.points.map((p) => ({ at: p.at.toISOString(), availableMinor: p.availableMinor.toString() })),
    );
    expect(history.movements).toBe(expected.movements);
    expect(history.movements).toBeGreaterThan(1500);
  });

  test("the movements the database keeps follow every write of orders, credits and withdrawals, through Prisma or raw SQL", async () => {
    const currency = "XBL";
    const requester = await makeStaff(["finance"]);
    const start = Date.now();
    const at = (msAgo: number) => new Date(start - msAgo);
    const order = (i: number, created: Date, status: string, spanMs = 3_000) => ({
      id: `ord_movements_${i}`,
      clientReference: `movements-${i}`,
      status,
      totalMinor: BigInt(100 + i),
      currency,
      lines: [],
      upstreamCreatedAt: created,
      upstreamUpdatedAt: new Date(created.getTime() + spanMs),
      createdAt: created,
    });
    const statuses = ["fulfilled", "failed", "refunded", "processing"];
    await db().order.createMany({
      data: Array.from({ length: 300 }, (_, i) => order(i, at(((i * 7919) % 300) * 0.11 * DAY + i * 1000), statuses[i % 4]!)),
    });
    await db().walletCredit.createMany({
      data: [1, 2, 3].map((i) => ({
        eventId: `evt_movements_${i}`,
        amountMinor: 5_000n * BigInt(i),
        currency,
        occurredAt: at(i * DAY),
        createdAt: at(i * DAY),
      })),
    });
    const withdrawal = (i: number) => ({
      id: `wd_movements_${i}`,
      amountMinor: 7_000n + BigInt(i),
      currency,
      feeMinor: 100n,
      netMinor: 6_900n,
      quotedPayoutAt: at(0),
      reason: "movements test",
      state: "sent",
      requestedById: requester.staffId,
      expiresAt: at(0),
      sendStartedAt: at(i * 2 * DAY),
      upstreamId: `wd_up_movements_${i}`,
    });
    await db().withdrawalRequest.createMany({ data: [1, 2].map(withdrawal) });

    const slicesAt = async (now: Date) => {
      const from = new Date(now.getTime() - 30 * DAY);
      const cuts = sliceCuts({ from: from.getTime(), now: now.getTime(), max: 400, reads: [] });
      return movementSlices({ currency, since: from, now, cuts });
    };
    const total = (slices: { sumMinor: bigint }[]) => slices.reduce((sum, s) => sum + s.sumMinor, 0n);
    const count = (slices: { count: number }[]) => slices.reduce((n, s) => n + s.count, 0);
    const first = await slicesAt(new Date());
    expect(first.length).toBeGreaterThan(100);

    // Through Prisma: an order fails, a new one is placed, one placed 34 days ago is refunded
    // now (its refund lands inside the chart), a credit arrives, a withdrawal is cancelled.
    await db().order.update({ where: { id: "ord_movements_0" }, data: { status: "failed", upstreamUpdatedAt: at(-5_000) } });
    await db().order.create({ data: order(1000, new Date(), "reserved") });
    await db().order.create({ data: { ...order(1001, at(34 * DAY), "fulfilled", 34 * DAY - 60_000), id: "ord_movements_old" } });
    await db().order.update({ where: { id: "ord_movements_old" }, data: { status: "refunded" } });
    await db().walletCredit.create({
      data: { eventId: "evt_movements_new", amountMinor: 123_456n, currency, occurredAt: new Date(), createdAt: new Date() },
    });
    await db().withdrawalRequest.update({
      where: { id: "wd_movements_1" },
      data: { state: "cancelled", cancelledAt: new Date() },
    });
    // In raw SQL: a processing order fails, one is inserted, and every order of the currency is
    // written again at once (as a re-read does), which moves nothing.
    await db().$executeRaw`UPDATE "Order" SET "status" = 'failed' WHERE "id" = 'ord_movements_3'`;
    await db().$executeRaw`
      INSERT INTO "Order" ("id", "clientReference", "status", "totalMinor", "currency", "lines",
                           "upstreamCreatedAt", "upstreamUpdatedAt", "createdAt", "updatedAt")
      VALUES ('ord_movements_raw', 'movements-raw', 'fulfilled', 500, ${currency}, '[]', now(), now(), ${new Date()}, now())`;
    await db().$executeRaw`UPDATE "Order" SET "updatedAt" = now(), "syncedAt" = now() WHERE "currency" = ${currency}`;

    const second = await slicesAt(new Date(Date.now() + 10_000));
    // Failed +100 back, new order −1100, the old order's refund +1101, the credit, the cancelled
    // withdrawal +7001, the raw failure +103 back, the raw order −500.
    expect(total(second) - total(first)).toBe(100n - 1100n + 1101n + 123_456n + 7_001n + 103n - 500n);
    expect(count(second) - count(first)).toBe(1 + 1 + 1 + 1 + 1 + 1 + 1);
  });

  test("the sums per instant the chart reads are the movements summed, after an import's burst, failures, refunds and deletions", async () => {
    const currency = "XBI";
    const now = new Date(Math.floor(Date.now() / 1000) * 1000 + 123);
    const at = (msAgo: number) => new Date(now.getTime() - msAgo);
    const order = (i: number, recordedAt: Date, status: string) => ({
      id: `ord_instants_${i}`,
      clientReference: `instants-${i}`,
      status,
      totalMinor: BigInt(i % 25 === 0 ? 0 : 100 + i),
      currency,
      lines: [],
      upstreamCreatedAt: at(40 * DAY - i * 1000),
      upstreamUpdatedAt: at(40 * DAY - i * 1000 - (status === "refunded" ? 2 * DAY : 3_000)),
      createdAt: recordedAt,
    });
    const statuses = ["fulfilled", "fulfilled", "failed", "refunded", "processing"];
    // An import's page: 500 orders recorded at one instant; then orders placed one by one.
    const burst = at(3 * DAY);
    await db().order.createMany({ data: Array.from({ length: 500 }, (_, i) => order(i, burst, statuses[i % 5]!)) });
    await db().order.createMany({
      data: Array.from({ length: 200 }, (_, i) => order(500 + i, at(((i * 7919) % 200) * 0.14 * DAY), statuses[i % 5]!)),
    });
    await db().walletCredit.create({
      data: { eventId: "evt_instants_1", amountMinor: 9_000n, currency, occurredAt: burst, createdAt: burst },
    });
    // Some fail or are refunded later, some are deleted, one of them every order of its instant.
    await db()
      .$executeRaw`UPDATE "Order" SET "status" = 'failed' WHERE "currency" = ${currency} AND "status" = 'processing' AND "id" LIKE 'ord_instants_1%'`;
    await db()
      .$executeRaw`UPDATE "Order" SET "status" = 'refunded', "upstreamUpdatedAt" = "upstreamUpdatedAt" + interval '1 day' WHERE "currency" = ${currency} AND "status" = 'fulfilled' AND "id" LIKE 'ord_instants_2%'`;
    await db().order.deleteMany({ where: { currency, id: { startsWith: "ord_instants_3" } } });
    await db().order.delete({ where: { id: "ord_instants_510" } });

    const [kept, summed] = await Promise.all([
      db().$queryRaw`
        SELECT "at", "deltaMinor", "movements", "changes" FROM "WalletMovementInstant" WHERE "currency" = ${currency} ORDER BY "at"`,
      db().$queryRaw`
        SELECT "at", sum("deltaMinor")::bigint AS "deltaMinor", count(*)::int AS "movements",
               (count(*) FILTER (WHERE "deltaMinor" <> 0))::int AS "changes"
        FROM "WalletMovement" WHERE "currency" = ${currency} GROUP BY "at" ORDER BY "at"`,
    ]);
    expect(kept).toEqual(summed);
    expect((kept as unknown[]).length).toBeGreaterThan(100);
    const burstRow = (kept as { at: Date; movements: number }[]).find((r) => r.at.getTime() === burst.getTime());
    expect(burstRow?.movements).toBeGreaterThan(300);

    // And the chart's slices from them are those of the movements one by one.
    const from = new Date(now.getTime() - 30 * DAY);
    const cuts = sliceCuts({ from: from.getTime(), now: now.getTime(), max: 400, reads: [] });
    const slices = await movementSlices({ currency, since: from, now, cuts });
    const movements = await db().walletMovement.findMany({ where: { currency, at: { gt: from, lte: now } } });
    const bySlice = new Map<number, { sumMinor: bigint; count: number; changes: number; lastChangeAt: number | null }>();
    for (const m of movements) {
      const slice = sliceOf(m.at.getTime(), cuts);
      const s = bySlice.get(slice) ?? { sumMinor: 0n, count: 0, changes: 0, lastChangeAt: null };
      s.sumMinor += m.deltaMinor;
      s.count += 1;
      if (m.deltaMinor !== 0n) {
        s.changes += 1;
        s.lastChangeAt = Math.max(s.lastChangeAt ?? 0, m.at.getTime());
      }
      bySlice.set(slice, s);
    }
    expect(slices).toEqual([...bySlice].sort(([a], [b]) => a - b).map(([slice, s]) => ({ slice, ...s })));
  });
});
