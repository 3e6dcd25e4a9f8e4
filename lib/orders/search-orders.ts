import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { isAppError } from "@/lib/errors";
import { listOrders, type OrderFilter, type OrderListRow } from "./list-orders";
import { lookupOrder, lookupOrdersByReference } from "./lookup-order";
import { looksLikeOrderId, looksLikeOrderIdStart } from "./order-id-shape";

/**
 * The orders list as people search it: the mirror first; a search that finds nothing there
 * is asked of the upstream once (held to the person's share of the budget): an id-shaped
 * search as an order id (lookupOrder, as the order page asks), any other search or client
 * reference as an exact reference; the beginning of an order id is not asked (the upstream
 * has no search by part of an id). Whatever it knows is mirrored and listed. That is how
 * support finds a storefront's order by the id or reference a customer quotes before the
 * import or a webhook brought it in. `lookedUp` tells the page that the upstream was asked;
 * `lookup: false` when the caller has already asked.
 */
export async function searchOrders(
  actor: Actor,
  filter: OrderFilter,
  page: { cursor?: string; limit?: number } = {},
  { lookup = true }: { lookup?: boolean } = {},
): Promise<{ rows: OrderListRow[]; nextCursor: string | null; lookedUp: boolean }> {
  const local = await listOrders(actor, filter, page);
  const { q } = filter;
  const asked = q ?? filter.reference;
  if (local.rows.length > 0 || !asked || page.cursor || !lookup || looksLikeOrderIdStart(asked))
    return { ...local, lookedUp: false };
  const found =
    q !== undefined && looksLikeOrderId(q) ? await lookupIdOrNothing(actor, q) : await lookupOrdersByReference(actor, asked);
  if (found === 0) return { ...local, lookedUp: true };
  return { ...(await listOrders(actor, filter, page)), lookedUp: true };
}

async function lookupIdOrNothing(actor: Actor, orderId: string): Promise<number> {
  try {
    await lookupOrder(actor, orderId);
    return 1;
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return 0;
    throw error;
  }
}
