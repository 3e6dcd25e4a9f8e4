import "server-only";
import { z } from "zod";
import { optionalIsoDaySchema, singleLineText } from "@/lib/validation";
import { db, Prisma } from "@/lib/db/client";
import { keysetPage, pageLimit, readTimeCursor, timeCursor, type KeysetPage } from "@/lib/db/keyset-page";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { ORDER_STATUSES, type OrderStatus } from "./states";
import { originOf, readOrderLines, type OrderOrigin } from "./get-order";

const blankToUndefined = (v: string | undefined) => v || undefined;

/** `status` arrives as repeated parameters (`?status=a&status=b`), a comma list, or both. */
const statusList = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return undefined;
    const parts = (Array.isArray(v) ? v : [v])
      .flatMap((s) => String(s).split(","))
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
    return parts.length ? [...new Set(parts)] : undefined;
  },
  z
    .array(z.string())
    .refine((list) => list.every(isOrderStatus), { message: `Unknown order status; use ${ORDER_STATUSES.join(", ")}.` })
    .transform((list) => list as OrderStatus[])
    .optional(),
);
function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

export const orderFilterSchema = z
  .object({
    /**
     * The one search box: an order id (whole or its beginning), part of a client reference, or a product (an id
     * exact, or part of a name). Optional in the output too, so callers may leave it out.
     */
    q: singleLineText().trim().max(200, "Use at most 200 characters.").transform(blankToUndefined).optional(),
    status: statusList,
    from: optionalIsoDaySchema,
    to: optionalIsoDaySchema,
    /** A product id (exact, inside the lines) or part of a product name. */
    product: singleLineText().trim().max(200, "Use at most 200 characters.").optional().transform(blankToUndefined),
    /** A staff id, or "me" for the person asking (so a shared link or export means its reader). */
    placedBy: singleLineText()
      .trim()
      .regex(/^(me|[A-Za-z0-9-]{1,64})$/, "Not a staff id.")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Part of the client reference, any case. */
    reference: singleLineText().trim().max(100, "Use at most 100 characters.").optional().transform(blankToUndefined),
    /** "here": placed in this back-office; "elsewhere": through the API by another client (a storefront). */
    origin: z
      .enum(["here", "elsewhere"], "Use here or elsewhere.")
      .optional()
      .or(z.literal("").transform(() => undefined)),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: "The end date is before the start date.", path: ["to"] });
export type OrderFilter = z.infer<typeof orderFilterSchema>;

/** `<upstreamCreatedAt ms>.<order id>` of the last row of the previous page. */
export const orderCursorSchema = z.string().regex(/^\d{1,15}\.[A-Za-z0-9_-]{1,200}$/, "Invalid cursor.");

export type OrderListRow = {
  id: string;
  clientReference: string;
  status: OrderStatus;
  totalMinor: string;
  currency: string;
  createdAt: string;
  updatedAt: string;
  items: { productId: string; productName: string; variantLabel: string; quantity: number }[];
  placedBy: { id: string; name: string; email: string } | null;
  origin: OrderOrigin;
};

type RawRow = {
  id: string;
  clientReference: string;
  status: string;
  totalMinor: bigint;
  currency: string;
  lines: unknown;
  upstreamCreatedAt: Date;
  upstreamUpdatedAt: Date;
  placedById: string | null;
  idempotencyKey: string | null;
  placedByName: string | null;
  placedByEmail: string | null;
};

const DAY_MS = 86_400_000;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const likePattern = (text: string) => `%${escapeLike(text)}%`;

/** The SQL conditions of a filter; shared by the list and the CSV export. */
export function orderConditions(actor: Actor, filter: OrderFilter): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  if (filter.status?.length) conditions.push(Prisma.sql`o."status" IN (${Prisma.join(filter.status)})`);
  // Days are UTC and inclusive: "to" covers the whole of its day.
  if (filter.from) conditions.push(Prisma.sql`o."upstreamCreatedAt" >= ${new Date(`${filter.from}T00:00:00.000Z`)}`);
  if (filter.to)
    conditions.push(Prisma.sql`o."upstreamCreatedAt" < ${new Date(Date.parse(`${filter.to}T00:00:00.000Z`) + DAY_MS)}`);
  if (filter.placedBy)
    conditions.push(Prisma.sql`o."placedById" = ${filter.placedBy === "me" ? actor.staffId : filter.placedBy}`);
  if (filter.origin === "here") conditions.push(Prisma.sql`(o."placedById" IS NOT NULL OR o."idempotencyKey" IS NOT NULL)`);
  if (filter.origin === "elsewhere") conditions.push(Prisma.sql`(o."placedById" IS NULL AND o."idempotencyKey" IS NULL)`);
  if (filter.reference) conditions.push(referenceMatch(filter.reference));
  if (filter.product) conditions.push(productMatch(filter.product));
  // Each branch has its index (the id's and the reference's trigrams, the lines' containment and name trigrams).
  if (filter.q) conditions.push(Prisma.sql`(${idMatch(filter.q)} OR ${referenceMatch(filter.q)} OR ${productMatch(filter.q)})`);
  return conditions;
}

/** The whole id or its beginning (part of an id, pasted or typed), as ids are written (case matters). */
function idMatch(text: string): Prisma.Sql {
  return Prisma.sql`o."id" LIKE ${`${escapeLike(text)}%`}`;
}

function referenceMatch(text: string): Prisma.Sql {
  return Prisma.sql`o."clientReference" ILIKE ${likePattern(text)}`;
}

/** An exact product id in any line (JSONB containment), or part of a line's product name. */
function productMatch(text: string): Prisma.Sql {
  const pattern = likePattern(text);
  return Prisma.sql`(
    o."lines" @> ${JSON.stringify([{ productId: text }])}::jsonb
    OR (${productNamesMayMatch(text, pattern)} AND EXISTS (
      SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(o."lines") = 'array' THEN o."lines" ELSE '[]'::jsonb END) AS line
      WHERE line->>'productName' ILIKE ${pattern}
    ))
  )`;
}

/**
 * A test the trigram index "Order_productNames_trgm_idx" answers, true of every order with
 * a line whose name contains the text: the names as JSON text hold it verbatim, unless it
 * has a character JSON escapes (a quote, a backslash, a control character): such text is
 * matched line by line only.
 */
function productNamesMayMatch(text: string, pattern: string): Prisma.Sql {
  if (/["\\\u0000-\u001f]/.test(text)) return Prisma.sql`TRUE`;
  return Prisma.sql`jsonb_path_query_array(o."lines", '$[*].productName')::text ILIKE ${pattern}`;
}

/**
 * Mirrored orders, newest first (by the upstream's creation time, then id, so that equal
 * timestamps still page without skips or repeats). Never calls the upstream.
 */
export async function listOrders(
  actor: Actor,
  filter: OrderFilter,
  page: { cursor?: string; limit?: number } = {},
): Promise<KeysetPage<OrderListRow>> {
  assertCan(actor, "orders.read");
  const limit = pageLimit(page.limit, 1000);
  const conditions = orderConditions(actor, filter);
  if (page.cursor && orderCursorSchema.safeParse(page.cursor).success) {
    const { at, id } = readTimeCursor(page.cursor);
    conditions.push(Prisma.sql`(o."upstreamCreatedAt", o."id") < (${at}, ${id})`);
  }
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
  const found = await db().$queryRaw<RawRow[]>`
    SELECT o."id", o."clientReference", o."status", o."totalMinor", o."currency", o."lines",
           o."upstreamCreatedAt", o."upstreamUpdatedAt", o."placedById", o."idempotencyKey",
           s."name" AS "placedByName", s."email" AS "placedByEmail"
    FROM "Order" o
    LEFT JOIN "Staff" s ON s."id" = o."placedById"
    ${where}
    ORDER BY o."upstreamCreatedAt" DESC, o."id" DESC
    LIMIT ${limit + 1}`;
  return keysetPage(found.map(toRow), limit, (row) => timeCursor(new Date(row.createdAt), row.id));
}

function toRow(r: RawRow): OrderListRow {
  return {
    id: r.id,
    clientReference: r.clientReference,
    status: r.status as OrderStatus,
    totalMinor: r.totalMinor.toString(),
    currency: r.currency,
    createdAt: r.upstreamCreatedAt.toISOString(),
    updatedAt: r.upstreamUpdatedAt.toISOString(),
    items: readOrderLines(r.lines, r.currency).map(({ productId, productName, variantLabel, quantity }) => ({
      productId,
      productName,
      variantLabel,
      quantity,
    })),
    placedBy:
      r.placedById && r.placedByName !== null ? { id: r.placedById, name: r.placedByName, email: r.placedByEmail ?? "" } : null,
    origin: originOf(r),
  };
}
