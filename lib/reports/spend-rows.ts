import "server-only";
import { db, Prisma } from "@/lib/db/client";
import type { ReportGrain, ReportGroup } from "./report-period";

/**
 * One cell of the spend report: the orders this app recorded in a bucket of time, of one group
 * and currency, their totals apart by outcome. Amounts are minor units of `currency`.
 * - fulfilled: delivered; in progress: reserved or processing (the money is held);
 * - failed: the reservation was released; refunded: fulfilled, then reversed and paid back.
 */
export type SpendCell = {
  bucket: Date;
  key: string;
  label: string;
  currency: string;
  orders: number;
  fulfilledMinor: bigint;
  inProgressMinor: bigint;
  failedMinor: bigint;
  refundedMinor: bigint;
};

/** Whose orders: every order of the workspace, or only those one person placed. */
export type SpendScope = { placedById: string | null };

/**
 * Where an order came from, from what the mirror keeps: a bulk file's rows are placed under the
 * keys `bulk-<file>-<row>` (lib/idempotency/keys.ts); an order this app placed otherwise carries
 * its person or its key; one with neither was placed through the API by another client of the
 * workspace (a storefront). The rule of lib/orders/get-order.ts originOf, with bulk files apart.
 */
const ORIGIN = Prisma.sql`CASE
  WHEN o."idempotencyKey" LIKE 'bulk-%' THEN 'bulk'
  WHEN o."placedById" IS NOT NULL OR o."idempotencyKey" IS NOT NULL THEN 'back-office'
  ELSE 'storefront' END`;

/** An order buys one product (the contract's order has one item): its first line names it. */
const PRODUCT_ID = Prisma.sql`(o."lines"->0->>'productId')`;

/** Each group's key and label in SQL; an empty key is "not known" (labelled by lib/reports/group-labels.ts). */
const GROUPS: Record<ReportGroup, { key: Prisma.Sql; label: Prisma.Sql; join?: Prisma.Sql }> = {
  product: { key: PRODUCT_ID, label: Prisma.sql`max(o."lines"->0->>'productName')` },
  category: { key: Prisma.sql`p."category"`, label: Prisma.sql`max(p."category")`, join: catalogJoin() },
  country: { key: Prisma.sql`p."countryCode"`, label: Prisma.sql`max(p."countryCode")`, join: catalogJoin() },
  type: { key: Prisma.sql`p."productType"`, label: Prisma.sql`max(p."productType")`, join: catalogJoin() },
  currency: { key: Prisma.sql`o."currency"`, label: Prisma.sql`max(o."currency")` },
  buyer: {
    key: Prisma.sql`o."placedById"`,
    label: Prisma.sql`max(s."name")`,
    join: Prisma.sql`LEFT JOIN "Staff" s ON s."id" = o."placedById"`,
  },
  origin: { key: ORIGIN, label: Prisma.sql`max(${ORIGIN})` },
};

function catalogJoin(): Prisma.Sql {
  return Prisma.sql`LEFT JOIN "CatalogProductState" p ON p."productId" = ${PRODUCT_ID}`;
}

/**
 * The report's cells for the orders recorded in [start, end): by the time this app recorded
 * each order (`createdAt`), the time its wallet movement carries, so the totals tie to the
 * wallet's movements of the same period. One statement: the period's orders are read once.
 */
export async function readSpendCells(
  scope: SpendScope,
  range: { start: Date; end: Date },
  grain: ReportGrain,
  by: ReportGroup,
): Promise<SpendCell[]> {
  const group = GROUPS[by];
  const rows = await db().$queryRaw<
    {
      bucket: Date;
      key: string | null;
      label: string | null;
      currency: string;
      orders: number;
      fulfilled: bigint;
      inProgress: bigint;
      failed: bigint;
      refunded: bigint;
    }[]
  >`
    SELECT date_trunc(${grain}, o."createdAt") AS "bucket", ${group.key} AS "key", ${group.label} AS "label", o."currency",
      count(*)::int AS "orders",
      coalesce(sum(o."totalMinor") FILTER (WHERE o."status" = 'fulfilled'), 0)::bigint AS "fulfilled",
      coalesce(sum(o."totalMinor") FILTER (WHERE o."status" IN ('reserved', 'processing')), 0)::bigint AS "inProgress",
      coalesce(sum(o."totalMinor") FILTER (WHERE o."status" = 'failed'), 0)::bigint AS "failed",
      coalesce(sum(o."totalMinor") FILTER (WHERE o."status" = 'refunded'), 0)::bigint AS "refunded"
    FROM "Order" o ${group.join ?? Prisma.empty}
    WHERE o."createdAt" >= ${range.start} AND o."createdAt" < ${range.end}
      ${scope.placedById === null ? Prisma.empty : Prisma.sql`AND o."placedById" = ${scope.placedById}`}
    GROUP BY 1, 2, 4
    ORDER BY 1, 2, 4`;
  return rows.map((r) => ({
    bucket: r.bucket,
    key: r.key ?? "",
    label: r.label ?? "",
    currency: r.currency,
    orders: r.orders,
    fulfilledMinor: r.fulfilled,
    inProgressMinor: r.inProgress,
    failedMinor: r.failed,
    refundedMinor: r.refunded,
  }));
}
