import "server-only";
import { AppError } from "@/lib/errors";
import { upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { mirrorOrder, mirrorOrders } from "./mirror";

// Upstream ids are opaque, but an id with other characters cannot be one: no call is spent on it.
const PLAUSIBLE_ID = /^[A-Za-z0-9._~-]{1,200}$/;

// A miss is remembered for a minute (per process, bounded), so a link clicked again, or a
// mistyped id or reference tried repeatedly, does not spend the shared budget each time.
const MISS_TTL_MS = 60_000;
const MISS_LIMIT = 1_000;
const misses = new Map<string, number>();
function recentMiss(key: string): boolean {
  const until = misses.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  misses.delete(key);
  return false;
}
function rememberMiss(key: string): void {
  if (misses.size >= MISS_LIMIT) misses.delete(misses.keys().next().value!);
  misses.set(key, Date.now() + MISS_TTL_MS);
}

/**
 * An order the mirror lacks, asked of the upstream at once (a person is waiting: interactive
 * priority) and mirrored, so support can open any order of the workspace by its id — one
 * placed by the storefront before the import reached it, or whose webhook never came.
 * A 404 upstream means the workspace has no such order.
 */
export async function lookupOrder(orderId: string): Promise<void> {
  if (!PLAUSIBLE_ID.test(orderId) || recentMiss(`id:${orderId}`)) throw noSuchOrder();
  try {
    const { data } = await upstream().getOrder(orderId, { priority: "interactive", deadlineMs: 20_000 });
    await mirrorOrder(data);
  } catch (error) {
    const failure = upstreamFailure(error);
    if (failure?.status === 404) {
      rememberMiss(`id:${orderId}`);
      throw noSuchOrder(failure.correlationId);
    }
    throw error;
  }
}

/** Orders with exactly this client reference, asked of the upstream (`clientReference` filter) and mirrored. */
export async function lookupOrdersByReference(clientReference: string): Promise<number> {
  if (recentMiss(`ref:${clientReference}`)) return 0;
  const { data } = await upstream().listOrders({ clientReference, limit: 100 }, { priority: "interactive", deadlineMs: 20_000 });
  await mirrorOrders(data.items);
  if (data.items.length === 0) rememberMiss(`ref:${clientReference}`);
  return data.items.length;
}

function noSuchOrder(correlationId?: string): AppError {
  return new AppError("not_found", "There is no such order in this workspace: the Issuing Service does not know this id.", {
    status: 404,
    correlationId,
  });
}
