import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { isAppError } from "@/lib/errors";
import { getOrder } from "./get-order";

/**
 * The order with exactly this id, or null when neither the mirror nor the upstream knows it:
 * what the orders page's search box asks of an id-shaped search before going to the order.
 * It is the order page's own read (getOrder: the mirror, then one lookup held to the
 * person's share, its misses remembered), so searching an id costs what opening it does.
 */
export async function findOrderById(actor: Actor, id: string): Promise<string | null> {
  try {
    return (await getOrder(actor, id)).id;
  } catch (error) {
    if (isAppError(error) && (error.code === "not_found" || error.code === "invalid_request")) return null;
    throw error;
  }
}
