import { StatusPill, type PillTone } from "@/components/ui/status-pill";
import type { OrderStatus } from "@/lib/orders/order-states";

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  reserved: "Reserved",
  processing: "Processing",
  fulfilled: "Fulfilled",
  failed: "Failed",
  refunded: "Refunded",
};

const TONES: Record<OrderStatus, PillTone> = {
  reserved: "info",
  processing: "working",
  fulfilled: "success",
  failed: "danger",
  refunded: "attention",
};

export function orderStatusLabel(status: string): string {
  return ORDER_STATUS_LABELS[status as OrderStatus] ?? status;
}

/** The status as text (never colour alone), usable from server and client components. */
export function OrderStatusBadge({ status, testId }: { status: string; testId?: string }) {
  return <StatusPill status={status} label={orderStatusLabel(status)} tone={TONES[status as OrderStatus]} testId={testId} dataAttribute="data-status" />;
}
