import "server-only";
import { db } from "@/lib/db/client";
import type { Order } from "@/lib/db/generated/client";

/** What pages and route handlers show of a mirrored order (JSON-safe: amounts as strings). */
export type OrderView = {
  id: string;
  clientReference: string;
  status: string;
  totalMinor: string;
  currency: string;
  lines: unknown;
  createdAt: string;
  updatedAt: string;
  syncedAt: string;
  placedById: string | null;
};

export function toOrderView(order: Order): OrderView {
  return {
    id: order.id,
    clientReference: order.clientReference,
    status: order.status,
    totalMinor: order.totalMinor.toString(),
    currency: order.currency,
    lines: order.lines,
    createdAt: order.upstreamCreatedAt.toISOString(),
    updatedAt: order.upstreamUpdatedAt.toISOString(),
    syncedAt: order.syncedAt.toISOString(),
    placedById: order.placedById,
  };
}

export async function getMirroredOrder(id: string): Promise<OrderView | null> {
  const order = await db().order.findUnique({ where: { id } });
  return order ? toOrderView(order) : null;
}
