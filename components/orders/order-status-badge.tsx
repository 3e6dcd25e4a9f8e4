import { StatusPill, type PillTone } from "@/components/ui/status-pill";
import { orderStatusLabel, type OrderStatus } from "@/lib/orders/states";

const TONES: Record<OrderStatus, PillTone> = {
  reserved: "info",
  processing: "working",
  fulfilled: "success",
  failed: "danger",
  refunded: "attention",
};

/** The status as text (never colour alone), usable from server and client components. */
export function OrderStatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <StatusPill
      status={status}
      label={orderStatusLabel(status)}
      tone={TONES[status as OrderStatus]}
      testId={testId}
      dataAttribute="data-status"
    />
  );
}
