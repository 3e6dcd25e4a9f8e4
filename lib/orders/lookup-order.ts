import "server-only";
import { AppError } from "@/lib/errors";
import { isServiceError } from "@/lib/service";
import { upstream } from "@/lib/upstream/service";
import { toAppError } from "@/lib/upstream/to-app-error";
import { mirrorOrder, mirrorOrders } from "./mirror";

// Upstream ids are opaque, but an id with other characters cannot be one: no call is spent on it.
const PLAUSIBLE_ID = /^[A-Za-z0-9._~-]{1,200}$/;

/**
 * An order the mirror lacks, asked of the upstream at once (a person is waiting: interactive
 * priority) and mirrored, so support can open any order of the workspace by its id — one
 * placed by the storefront before the import reached it, or whose webhook never came.
 * A 404 upstream means the workspace has no such order.
 */
export async function lookupOrder(orderId: string): Promise<void> {
  if (!PLAUSIBLE_ID.test(orderId)) throw noSuchOrder();
  try {
    const { data } = await upstream().getOrder(orderId, { priority: "interactive", deadlineMs: 20_000 });
    await mirrorOrder(data);
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw noSuchOrder(error.correlationId);
    throw toAppError(error);
  }
}

/** Orders with exactly this client reference, asked of the upstream (`clientReference` filter) and mirrored. */
export async function lookupOrdersByReference(clientReference: string): Promise<number> {
  try {
    const { data } = await upstream().listOrders({ clientReference, limit: 100 }, { priority: "interactive", deadlineMs: 20_000 });
    await mirrorOrders(data.items);
    return data.items.length;
  } catch (error) {
    throw toAppError(error);
  }
}

function noSuchOrder(correlationId?: string): AppError {
  return new AppError("not_found", "There is no such order in this workspace: the Issuing Service does not know this id.", { status: 404, correlationId });
}
