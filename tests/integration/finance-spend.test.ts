import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { getFinanceSpend } from "@/lib/overview/finance-spend";
import { makeStaff } from "../support/db";

const DAY = 86_400_000;
// A currency no other test uses, so the figures are this file's alone.
const CUR = "XTS";

async function mirror(status: string, totalMinor: bigint, createdAt: Date): Promise<string> {
  const id = `ord_spend_${randomUUID()}`;
  await db().order.create({
    data: {
      id,
      clientReference: id,
      status,
      totalMinor,
      currency: CUR,
      lines: [],
      upstreamCreatedAt: createdAt,
      upstreamUpdatedAt: createdAt,
    },
  });
  return id;
}

const spendOf = async (actor: Actor, now: Date) => (await getFinanceSpend(actor, now)).currencies.find((c) => c.currency === CUR);

describe("finance spend: captured orders per day, kept by the database as the mirror changes", () => {
  let finance: Actor;
  beforeAll(async () => {
    finance = await makeStaff(["finance"]);
  });

  test("spend counts fulfilled and refunded orders on their upstream day, follows status changes, and leaves out the rest", async () => {
    const now = new Date("2031-03-15T10:00:00Z");
    const today = new Date("2031-03-15T08:00:00Z");
    const yesterday = new Date(today.getTime() - DAY);
    const lastMonth = new Date("2031-02-20T12:00:00Z");

    await mirror("fulfilled", 1_000n, today);
    await mirror("refunded", 250n, today);
    await mirror("failed", 9_999n, today);
    const pending = await mirror("reserved", 700n, today);
    await mirror("fulfilled", 300n, yesterday);
    await mirror("fulfilled", 5_000n, lastMonth);
    const gone = await mirror("fulfilled", 40n, yesterday);

    let spend = await spendOf(finance, now);
    expect(spend).toMatchObject({ todayMinor: "1250", monthMinor: "1590" });

    // A reserved order captured later counts from then on; a deleted row stops counting.
    await db().order.update({ where: { id: pending }, data: { status: "processing" } });
    await db().order.update({ where: { id: pending }, data: { status: "fulfilled" } });
    await db().order.delete({ where: { id: gone } });
    spend = await spendOf(finance, now);
    expect(spend).toMatchObject({ todayMinor: "1950", monthMinor: "2250" });

    // The chart: 30 days ending today, last month's order inside it, zero where nothing was captured.
    expect(spend!.days).toHaveLength(30);
    expect(spend!.days.at(-1)).toEqual({ day: "2031-03-15", minor: "1950", orders: 3 });
    expect(spend!.days.at(-2)).toEqual({ day: "2031-03-14", minor: "300", orders: 1 });
    expect(spend!.days.find((d) => d.day === "2031-02-20")).toEqual({ day: "2031-02-20", minor: "5000", orders: 1 });
    expect(spend!.days.filter((d) => d.minor !== "0")).toHaveLength(3);
  });

  test("an order the upstream dates tomorrow (its clock runs ahead of ours) counts as today's, so today, the month and the chart add up", async () => {
    const now = new Date("2032-06-30T23:58:00Z");
    await mirror("fulfilled", 120n, new Date("2032-06-30T23:50:00Z"));
    await mirror("fulfilled", 80n, new Date("2032-07-01T00:03:00Z"));
    const spend = await spendOf(finance, now);
    expect(spend).toMatchObject({ todayMinor: "200", monthMinor: "200" });
    expect(spend!.days.at(-1)).toEqual({ day: "2032-06-30", minor: "200", orders: 2 });
  });

  test("only staff who may read the wallet see spend", async () => {
    await expect(getFinanceSpend(await makeStaff(["buyer"]))).rejects.toMatchObject({ code: "forbidden" });
  });
});
