import "server-only";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { expireSpendRequests, noticeExpiringSpendRequests } from "./expire-spend-requests";
import { placeApprovedOrder } from "./place-approved-order";

/** Approved orders untouched this long: their send never finished (a crash, no answer). */
const SETTLE_AFTER_MS = 30_000;

/**
 * The worker's periodic pass: expire what nobody decided in time (never sent), warn approvers
 * of what is about to (once each), and finish
 * approved orders whose placement was interrupted, resending under the same key, which can
 * only find the one order.
 */
export async function maintainSpendRequests(now = new Date()): Promise<{ expired: number; settled: number; expiring: number }> {
  const expired = await expireSpendRequests(now);
  const expiring = await noticeExpiringSpendRequests(now);
  const stale = await db().spendRequest.findMany({
    where: { state: "approved", kind: "order", updatedAt: { lt: new Date(now.getTime() - SETTLE_AFTER_MS) } },
    select: { id: true },
    take: 50,
  });
  let settled = 0;
  for (const { id } of stale) {
    try {
      await placeApprovedOrder(id, null);
      settled += 1;
    } catch (error) {
      // Left approved: the next pass tries again under the same key.
      logger.warn("approved spend request not settled yet", {
        spendRequestId: id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { expired, settled, expiring };
}
