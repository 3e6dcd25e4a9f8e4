import "server-only";
import { db } from "@/lib/db/client";
import { spentByJob, upstream } from "@/lib/upstream/service";
import type { Priority } from "@/lib/upstream/client";
import { mirrorOrder } from "./mirror";
import type { OrderStatus } from "./states";

/** A read this long after an event's time is taken to include it (covers modest clock skew). */
const SKEW_MARGIN_MS = 2_000;

/**
 * Re-reads one order from the upstream and mirrors it. Webhooks and reconciliation both
 * come here: the API's answer is the truth, whatever order events arrived in.
 * With `eventAt`, a mirror already read well after the event is not read again — events
 * of one order often arrive together, and each re-read spends the shared budget.
 */
export async function refreshOrder(
  orderId: string,
  options: { eventAt?: Date; priority?: Priority; alwaysRead?: boolean } = {},
): Promise<{ status: OrderStatus; changed: boolean }> {
  if (options.eventAt && !options.alwaysRead) {
    const mirrored = await db().order.findUnique({
      where: { id: orderId },
      select: { status: true, syncedAt: true, lastEventAt: true },
    });
    if (mirrored && mirrored.syncedAt.getTime() > options.eventAt.getTime() + SKEW_MARGIN_MS) {
      if (!mirrored.lastEventAt || options.eventAt > mirrored.lastEventAt) {
        await db().order.updateMany({
          where: { id: orderId, OR: [{ lastEventAt: null }, { lastEventAt: { lt: options.eventAt } }] },
          data: { lastEventAt: options.eventAt },
        });
      }
      return { status: mirrored.status as OrderStatus, changed: false };
    }
  }
  const { data } = await upstream().getOrder(orderId, {
    priority: options.priority ?? "background",
    deadlineMs: 60_000,
    by: spentByJob("orders-refresh"),
  });
  return mirrorOrder(data, { eventAt: options.eventAt ?? null });
}
