import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { orderConditions, type OrderFilter } from "./list-orders";

/** How many orders match the filter in all (the list itself is read a page at a time). */
export async function countOrders(actor: Actor, filter: OrderFilter): Promise<number> {
  assertCan(actor, "orders.read");
  const conditions = orderConditions(actor, filter);
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
  const [row] = await db().$queryRaw<{ count: bigint }[]>`SELECT count(*) AS "count" FROM "Order" o ${where}`;
  return Number(row?.count ?? 0);
}
