import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { listOrders, type OrderFilter, type OrderListRow } from "./list-orders";
import { lookupOrdersByReference } from "./lookup-order";

/**
 * The orders list as people search it: the mirror first; a client reference that finds
 * nothing there is asked of the upstream as an exact reference (one call), and whatever it
 * knows is mirrored and listed. That is how support finds a storefront's order by the
 * reference a customer quotes before the import or a webhook brought it in.
 * `lookedUp` tells the page that the upstream was asked.
 */
export async function searchOrders(
  actor: Actor,
  filter: OrderFilter,
  page: { cursor?: string; limit?: number } = {},
): Promise<{ rows: OrderListRow[]; nextCursor: string | null; lookedUp: boolean }> {
  const local = await listOrders(actor, filter, page);
  if (local.rows.length > 0 || !filter.reference || page.cursor) return { ...local, lookedUp: false };
  const found = await lookupOrdersByReference(actor, filter.reference);
  if (found === 0) return { ...local, lookedUp: true };
  return { ...(await listOrders(actor, filter, page)), lookedUp: true };
}
