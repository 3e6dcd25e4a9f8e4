import "server-only";
import { upstream } from "@/lib/upstream/service";
import type { Priority } from "@/lib/service";
import { mirrorOrder } from "./mirror";
import type { OrderStatus } from "./order-states";

/**
 * Re-reads one order from the upstream and mirrors it. Webhooks and reconciliation both
 * come here: the API's answer is the truth, whatever order events arrived in.
 */
export async function refreshOrder(orderId: string, options: { eventAt?: Date; priority?: Priority } = {}): Promise<{ status: OrderStatus; changed: boolean }> {
  const { data } = await upstream().getOrder(orderId, { priority: options.priority ?? "background", deadlineMs: 60_000 });
  return mirrorOrder(data, { eventAt: options.eventAt ?? null });
}
