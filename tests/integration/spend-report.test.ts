import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { listProducts } from "@/lib/catalog/list-products";
import type { ProductView } from "@/lib/catalog/product-view";
import { getSpendReport } from "@/lib/reports/get-spend-report";
import { exportSpendReportCsv } from "@/lib/reports/export-spend-report";
import { REPORT_GROUPS, reportFilterSchema } from "@/lib/reports/report-period";
import { makeStaff } from "../support/db";
import { eventually } from "../support/sandbox";

// A month no other test records orders in: the report and the wallet's movements of it are this file's.
const MONTH = { period: "custom", from: "2034-05-01", to: "2034-05-31" } as const;
const MAY = Date.parse("2034-05-01T00:00:00Z");
const HOUR = 3_600_000;
const STATUSES = ["fulfilled", "fulfilled", "fulfilled", "failed", "fulfilled", "refunded", "reserved", "fulfilled"];

type Seeded = { id: string; status: string; totalMinor: bigint; currency: string; placedById: string | null; productId: string };

const filter = (input: Record<string, string> = {}) => reportFilterSchema.parse({ ...MONTH, ...input });
const sumOf = (orders: Seeded[], where: (o: Seeded) => boolean) => orders.filter(where).reduce((s, o) => s + o.totalMinor, 0n);
const isNet = (o: Seeded) => o.status === "fulfilled" || o.status === "reserved";

const mirrored = (o: Seeded) => ({
  id: o.id,
  status: o.status,
  totalMinor: o.totalMinor,
  currency: o.currency,
  placedById: o.placedById,
});

async function readCsv(stream: ReadableStream<Uint8Array>): Promise<Record<string, string>[]> {
  return parse(await new Response(stream).text(), { columns: true }) as Record<string, string>[];
}

/** The catalog read through the app (over HTTP from the sandbox): one product per currency, of two types. */
async function pickProducts(actor: Actor): Promise<ProductView[]> {
  const seen = [
    ...(await listProducts(actor, { page: 1, size: 100, category: "gift-card" })).items,
    ...(await listProducts(actor, { page: 1, size: 100, category: "esim" })).items,
  ];
  const picked = (
    [
      ["USD", "gift-card"],
      ["EUR", "gift-card"],
      ["USD", "esim"],
    ] as const
  ).map(([currency, type]) => {
    const found = seen.find((p) => p.currency === currency && p.type === type);
    if (!found) throw new Error(`no ${currency} product in the sandbox catalog`);
    return found;
  });
  // The catalog read keeps the products' facts without making its caller wait.
  await eventually(
    async () =>
      (await db().catalogProductState.count({ where: { productId: { in: picked.map((p) => p.id) } } })) === picked.length,
  );
  return picked;
}

describe("the spend report of a month", () => {
  let finance: Actor, admin: Actor, buyer: Actor, otherBuyer: Actor, support: Actor;
  let orders: Seeded[];
  let lateFailure: Seeded, earlierRefund: Seeded;

  beforeAll(async () => {
    [finance, admin, buyer, otherBuyer, support] = await Promise.all([
      makeStaff(["finance"]),
      makeStaff(["admin"]),
      makeStaff(["buyer"]),
      makeStaff(["buyer"]),
      makeStaff(["support"]),
    ]);
    const products = await pickProducts(finance);
    const rows = [];
    orders = [];
    // 240 orders over the month: three products (two currencies, two types, several countries), two buyers and the
    // storefront, each origin, every outcome.
    for (let i = 0; i < 240; i++) {
      const product = products[i % 3]!;
      const origin = i % 4; // 0, 1: back-office; 2: bulk file; 3: storefront
      const placedById = origin === 3 ? null : i % 8 < 4 ? buyer.staffId : otherBuyer.staffId;
      const key = origin === 2 ? `bulk-${randomUUID()}-${i}` : origin === 3 ? null : `client:${placedById}:${randomUUID()}`;
      const at = new Date(MAY + (i % 30) * 24 * HOUR + (i % 17) * HOUR);
      const order: Seeded = {
        id: `ord_rep_${randomUUID()}`,
        status: STATUSES[i % STATUSES.length]!,
        totalMinor: BigInt(1_000 + i * 37),
        currency: product.currency,
        placedById,
        productId: product.id,
      };
      orders.push(order);
      rows.push({
        ...mirrored(order),
        clientReference: order.id,
        idempotencyKey: key,
        lines: [{ productId: product.id, productName: product.name, variantLabel: "", quantity: 1, currency: product.currency }],
        createdAt: at,
        upstreamCreatedAt: at,
        upstreamUpdatedAt: new Date(at.getTime() + 10 * 60_000),
      });
    }
    // A failure recorded on the last evening whose reservation came back in June, and an April order refunded in May.
    lateFailure = { ...orders[3]!, id: `ord_rep_${randomUUID()}`, totalMinor: 4_321n, status: "failed" };
    earlierRefund = { ...orders[0]!, id: `ord_rep_${randomUUID()}`, totalMinor: 2_500n, status: "refunded" };
    const lastEvening = new Date(Date.parse("2034-05-31T22:00:00Z"));
    const april = new Date(Date.parse("2034-04-28T09:00:00Z"));
    for (const [o, at, returnedAfter] of [
      [lateFailure, lastEvening, 3 * HOUR],
      [earlierRefund, april, 5 * 24 * HOUR],
    ] as const) {
      rows.push({
        ...mirrored(o),
        clientReference: o.id,
        idempotencyKey: null,
        lines: [{ productId: o.productId, productName: "", variantLabel: "", quantity: 1, currency: o.currency }],
        createdAt: at,
        upstreamCreatedAt: at,
        upstreamUpdatedAt: new Date(at.getTime() + returnedAfter),
      });
    }
    orders.push(lateFailure);
    await db().order.createMany({ data: rows });
  }, 120_000);

  test("every breakdown sums to the month's totals, apart by outcome, in each currency", async () => {
    for (const by of REPORT_GROUPS) {
      const report = await getSpendReport(finance, filter({ by }));
      expect(report.scope).toBe("workspace");
      expect(report.currencies.map((c) => c.currency)).toEqual(["EUR", "USD"]);
      for (const c of report.currencies) {
        const of = orders.filter((o) => o.currency === c.currency);
        expect(c.total, `${by} ${c.currency}`).toEqual({
          orders: of.length,
          fulfilledMinor: sumOf(of, (o) => o.status === "fulfilled"),
          inProgressMinor: sumOf(of, (o) => o.status === "reserved"),
          failedMinor: sumOf(of, (o) => o.status === "failed"),
          refundedMinor: sumOf(of, (o) => o.status === "refunded"),
          netMinor: sumOf(of, isNet),
        });
        const groups = c.groups.reduce(
          (s, g) => ({ orders: s.orders + g.orders, net: s.net + g.netMinor, failed: s.failed + g.failedMinor }),
          { orders: 0, net: 0n, failed: 0n },
        );
        expect(groups, `${by} ${c.currency}`).toEqual({
          orders: c.total.orders,
          net: c.total.netMinor,
          failed: c.total.failedMinor,
        });
        const charted = c.chart.bars.reduce((s, bar) => s + bar.values.reduce((a, v) => a + v, 0n), 0n);
        expect(charted, `${by} ${c.currency} chart`).toBe(c.total.netMinor);
      }
    }
    const byOrigin = await getSpendReport(admin, filter({ by: "origin", grain: "week" }));
    expect(byOrigin.currencies[0]!.groups.map((g) => g.label).sort()).toEqual(["Back-office", "Bulk file", "Storefront or API"]);
    expect(byOrigin.currencies[0]!.chart.bars).toHaveLength(5);
    const byType = await getSpendReport(finance, filter({ by: "type" }));
    expect(
      byType.currencies
        .find((c) => c.currency === "USD")!
        .groups.map((g) => g.label)
        .sort(),
    ).toEqual(["Gift card", "eSIM"]);
    const byCountry = await getSpendReport(finance, filter({ by: "country" }));
    expect(byCountry.currencies.flatMap((c) => c.groups).every((g) => /^[A-Z].* \([A-Z]{2}\)$/.test(g.label))).toBe(true);
  });

  test("each currency's total ties to the wallet's movements of the month, to the cent, naming what came back outside it", async () => {
    const report = await getSpendReport(finance, filter());
    for (const c of report.currencies) {
      const of = orders.filter((o) => o.currency === c.currency);
      // Out: every order recorded in May. Back in May: failed and refunded orders, except the failure whose
      // reservation came back in June; and the April order refunded in May.
      const out = sumOf(of, () => true);
      const later = lateFailure.currency === c.currency ? lateFailure.totalMinor : 0n;
      const earlier = earlierRefund.currency === c.currency ? earlierRefund.totalMinor : 0n;
      const back = sumOf(of, (o) => o.status === "failed" || o.status === "refunded") - later + earlier;
      const moved = await db().walletMovement.aggregate({
        where: {
          currency: c.currency,
          kind: { in: ["order", "order_release", "refund"] },
          at: { gte: new Date(MAY), lt: new Date("2034-06-01T00:00:00Z") },
        },
        _sum: { deltaMinor: true },
      });
      expect(moved._sum.deltaMinor, c.currency).toBe(back - out);
      expect(c.tie, c.currency).toEqual({
        currency: c.currency,
        walletMinor: back - out,
        returnedLaterMinor: later,
        returnedEarlierMinor: earlier,
        unexplainedMinor: 0n,
      });
      expect(c.total.netMinor + later - earlier).toBe(out - back);
    }
  });

  test("a buyer's report and CSV hold only their own orders", async () => {
    const mine = orders.filter((o) => o.placedById === buyer.staffId);
    const report = await getSpendReport(buyer, filter({ by: "buyer" }));
    expect(report.scope).toBe("own");
    for (const c of report.currencies) {
      expect(c.tie).toBeNull();
      expect(c.groups.map((g) => g.key)).toEqual([buyer.staffId]);
      expect(c.total.netMinor).toBe(sumOf(mine, (o) => o.currency === c.currency && isNet(o)));
      expect(c.total.orders).toBe(mine.filter((o) => o.currency === c.currency).length);
    }
    const csv = await readCsv(await exportSpendReportCsv(buyer, filter({ by: "origin" })));
    const groupRows = csv.filter((r) => r.row === "group");
    expect(new Set(groupRows.map((r) => r.group))).toEqual(new Set(["Back-office", "Bulk file"]));
    expect(csv.filter((r) => r.row === "total").map((r) => [r.currency, r.orders])).toEqual(
      ["EUR", "USD"].map((cur) => [cur, String(mine.filter((o) => o.currency === cur).length)]),
    );
  });

  test("the CSV carries the page's figures: a row per day, group and currency, and a total per currency", async () => {
    const report = await getSpendReport(finance, filter({ by: "country" }));
    const csv = await readCsv(await exportSpendReportCsv(finance, filter({ by: "country" })));
    expect(Object.keys(csv[0]!)).toEqual([
      "row",
      "periodStart",
      "periodEnd",
      "groupBy",
      "group",
      "groupId",
      "currency",
      "orders",
      "fulfilled",
      "inProgress",
      "failed",
      "refunded",
      "netSpend",
    ]);
    for (const c of report.currencies) {
      const total = csv.find((r) => r.row === "total" && r.currency === c.currency)!;
      expect(total).toMatchObject({ periodStart: "2034-05-01", periodEnd: "2034-05-31", orders: String(c.total.orders) });
      const cents = (v: string) => BigInt(v.replace(".", ""));
      expect(cents(total.netSpend!)).toBe(c.total.netMinor);
      expect(cents(total.refunded!)).toBe(c.total.refundedMinor);
      const days = csv.filter((r) => r.row === "group" && r.currency === c.currency);
      expect(days.reduce((s, r) => s + cents(r.netSpend!), 0n)).toBe(c.total.netMinor);
      expect(days.every((r) => r.periodStart === r.periodEnd && r.groupBy === "country")).toBe(true);
    }
  });

  test("only finance, admins and buyers open the report", async () => {
    await expect(getSpendReport(support, filter())).rejects.toMatchObject({ code: "forbidden" });
    await expect(exportSpendReportCsv(support, filter())).rejects.toMatchObject({ code: "forbidden" });
  });
});
