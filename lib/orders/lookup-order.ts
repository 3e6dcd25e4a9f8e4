import "server-only";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/actor";
import { spentBy, upstream } from "@/lib/upstream/service";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { mirrorOrder, mirrorOrders } from "./mirror";

// Upstream ids are opaque (the contract shows none), but an id with other characters, or longer
// than any id the upstream has given, cannot be one: no call is spent on it.
const PLAUSIBLE_ID = /^[A-Za-z0-9._~-]{1,100}$/;

// A miss is remembered for a minute (per process, bounded), so a link clicked again, or a
// mistyped id or reference tried repeatedly, does not spend the shared budget each time.
const MISS_TTL_MS = 60_000;
const MISS_LIMIT = 1_000;
const misses = new Map<string, number>();
const LOOKUP = { priority: "interactive", lookup: true, deadlineMs: 20_000 } as const;
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
 * An order the mirror lacks, asked of the upstream at once and mirrored, so support can open
 * any order of the workspace by its id — one placed by the storefront before the import
 * reached it, or whose webhook never came. A 404 upstream means the workspace has no such order.
 *
 * A lookup is charged to the person as one (LOOKUP): a few a minute per person, and at
 * background priority when the minute is busy, so nobody can spend the workspace's minute
 * on made-up ids.
 */
export async function lookupOrder(actor: Actor, orderId: string): Promise<void> {
  if (!PLAUSIBLE_ID.test(orderId) || recentMiss(`id:${orderId}`)) throw noSuchOrder();
  try {
    const { data } = await upstream().getOrder(orderId, { ...LOOKUP, by: spentBy(actor) });
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
export async function lookupOrdersByReference(actor: Actor, clientReference: string): Promise<number> {
  if (recentMiss(`ref:${clientReference}`)) return 0;
  const { data } = await upstream().listOrders({ clientReference, limit: 100 }, { ...LOOKUP, by: spentBy(actor) });
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
