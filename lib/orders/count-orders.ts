import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { cappedCount, SEARCH_COUNT_CAP, type CappedCount } from "@/lib/db/keyset-page";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { orderConditions, type OrderFilter } from "./list-orders";

function whereOf(actor: Actor, filter: OrderFilter): Prisma.Sql {
  const conditions = orderConditions(actor, filter);
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** How many orders match the filter in all (the list itself is read a page at a time). */
export async function countOrders(actor: Actor, filter: OrderFilter): Promise<number> {
  assertCan(actor, "orders.read");
  const [row] = await db().$queryRaw<{ count: bigint }[]>`SELECT count(*) AS "count" FROM "Order" o ${whereOf(actor, filter)}`;
  return Number(row?.count ?? 0);
}

/**
 * The same, up to the counting cap (lib/db/keyset-page.ts): what the orders page shows, so
 * that a page over 100,000 orders never counts them all. A search for text inside the
 * reference or a product name stops at the lower search cap.
 */
export async function countOrdersCapped(actor: Actor, filter: OrderFilter): Promise<CappedCount> {
  assertCan(actor, "orders.read");
  return cappedCount(
    async (take) => {
      // In the list's order (newest first, its index), so that a broad filter stops after the
      // newest matches instead of wherever another index happens to start: counting a 1-in-4
      // reference search ("shop") walked 50,000 other references in the reference index first.
      const [row] = await db().$queryRaw<{ count: bigint }[]>`
      SELECT count(*) AS "count" FROM (
        SELECT 1 FROM "Order" o ${whereOf(actor, filter)}
        ORDER BY o."upstreamCreatedAt" DESC, o."id" DESC LIMIT ${take}
      ) AS capped`;
      return Number(row?.count ?? 0);
    },
    filter.q || filter.reference || filter.product ? SEARCH_COUNT_CAP : undefined,
  );
}
