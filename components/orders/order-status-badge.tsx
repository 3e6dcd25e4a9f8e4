import { orderStatusLabel, type OrderStatus } from "@/lib/orders/states";

const TONES: Record<OrderStatus, string> = {
  reserved: "bg-sky-50 text-sky-800 ring-sky-200",
  processing: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  fulfilled: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  refunded: "bg-amber-50 text-amber-900 ring-amber-200",
};

/** The status as text (never colour alone), usable from server and client components. */
export function OrderStatusBadge({ status, testId }: { status: string; testId?: string }) {
  const tone = TONES[status as OrderStatus] ?? "bg-slate-100 text-slate-700 ring-slate-200";
  return (
    <span data-testid={testId} data-status={status} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}>
      {orderStatusLabel(status)}
    </span>
  );
}
