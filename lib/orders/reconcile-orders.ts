import "server-only";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { OPEN_STATUSES } from "./states";
import { refreshOrder } from "./refresh-order";

/** Backoff between re-reads of an order still open: 5 s doubling, at most 10 minutes. */
export function nextCheckDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** attempts, 10 * 60_000);
}

/**
 * Re-reads orders that are not final and are due, so an order still reaches its final
 * state when its webhook never comes. Runs on background priority within the budget.
 */
export async function reconcileOrders(limit = 20): Promise<{ checked: number; changed: number }> {
  const due = await db().order.findMany({
    where: { status: { in: [...OPEN_STATUSES] }, nextCheckAt: { lte: new Date() } },
    orderBy: { nextCheckAt: "asc" },
    take: limit,
  });
  let changed = 0;
  for (const order of due) {
    try {
      const result = await refreshOrder(order.id);
      if (result.changed) changed += 1;
      if (OPEN_STATUSES.includes(result.status)) {
        await db().order.update({
          where: { id: order.id },
          data: {
            checkAttempts: { increment: 1 },
            nextCheckAt: new Date(Date.now() + nextCheckDelayMs(order.checkAttempts + 1)),
          },
        });
      }
    } catch (error) {
      logger.warn("order reconciliation failed", {
        orderId: order.id,
        code: upstreamFailure(error)?.code ?? (error as { code?: string }).code,
      });
      await db().order.update({
        where: { id: order.id },
        data: { checkAttempts: { increment: 1 }, nextCheckAt: new Date(Date.now() + nextCheckDelayMs(order.checkAttempts + 1)) },
      });
    }
  }
  return { checked: due.length, changed };
}
