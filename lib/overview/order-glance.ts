import "server-only";
import { readOrderLines } from "@/lib/orders/get-order";
import type { OrderListRow } from "@/lib/orders/list-orders";
import { orderMachine } from "@/lib/orders/states";

/** One order as a home-page list shows it: enough to recognise it, open it, or order it again. */
export type OrderGlance = Pick<
  OrderListRow,
  "id" | "clientReference" | "status" | "totalMinor" | "currency" | "createdAt" | "updatedAt"
> & {
  /** The first line's product: where a failed order is bought again. */
  productId: string | null;
};

/** The columns a glance reads (never the whole row). */
export const glanceSelect = {
  id: true,
  clientReference: true,
  status: true,
  totalMinor: true,
  currency: true,
  upstreamCreatedAt: true,
  upstreamUpdatedAt: true,
  lines: true,
} as const;

type GlanceRow = {
  id: string;
  clientReference: string;
  status: string;
  totalMinor: bigint;
  currency: string;
  upstreamCreatedAt: Date;
  upstreamUpdatedAt: Date;
  lines: unknown;
};

export function toGlance(row: GlanceRow): OrderGlance {
  return {
    id: row.id,
    clientReference: row.clientReference,
    // The mirror only stores known states; an unknown one reads as still moving.
    status: orderMachine.is(row.status) ? row.status : "processing",
    totalMinor: row.totalMinor.toString(),
    currency: row.currency,
    createdAt: row.upstreamCreatedAt.toISOString(),
    updatedAt: row.upstreamUpdatedAt.toISOString(),
    productId: readOrderLines(row.lines, row.currency)[0]?.productId ?? null,
  };
}
