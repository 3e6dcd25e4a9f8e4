import { Button } from "@/components/ui/button";

/** An order above the admin's confirmation amount, held for a second look. */
export type HeldOrder = { body: Record<string, unknown>; totalMinor: bigint; availableMinor: bigint | null };

/** The second look: the order's total, the wallet now and after the order, then confirm or cancel. */
export function ConfirmOrder({
  held,
  above,
  money,
  pending,
  confirmLabel = "Confirm order",
  onConfirm,
  onCancel,
}: {
  held: HeldOrder;
  /** The confirmation amount, in words. */
  above: string;
  money: (minor: bigint) => string;
  pending: boolean;
  confirmLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div
      className="rounded-md bg-amber-50 p-4 ring-1 ring-amber-200"
      role="alertdialog"
      aria-label="Confirm a large order"
      data-testid="confirm-order"
    >
      <p className="text-sm font-medium text-amber-900">This order is above {above}. Please confirm.</p>
      <dl className="mt-2 grid grid-cols-2 gap-1 text-sm text-amber-900">
        <dt>Order total</dt>
        <dd className="text-right font-medium">{money(held.totalMinor)}</dd>
        <dt>Available now</dt>
        <dd className="text-right">{held.availableMinor === null ? "unknown" : money(held.availableMinor)}</dd>
        <dt>Available after this order</dt>
        <dd className="text-right font-medium" data-testid="available-after">
          {held.availableMinor === null ? "unknown" : money(held.availableMinor - held.totalMinor)}
        </dd>
      </dl>
      <div className="mt-3 flex gap-2">
        <Button type="button" disabled={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
