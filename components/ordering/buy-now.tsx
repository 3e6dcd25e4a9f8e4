import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

/**
 * Buying without a quote, at the current price, under a ceiling the buyer may set. The form's
 * submit, except when the order will wait for an approver: the approval box's one button asks
 * then (at this ceiling), and while a quote holds it asks at the quote's total, so this is hidden.
 */
export function BuyNow({
  currency,
  maximumTotal,
  error,
  onChange,
  pending,
  asksApproval = false,
  hidden = false,
}: {
  currency: string;
  maximumTotal: string;
  error?: string;
  onChange: (maximumTotal: string) => void;
  pending: boolean;
  /** The order will wait for an approver: no button here, the field sets the ceiling asked for. */
  asksApproval?: boolean;
  hidden?: boolean;
}) {
  if (hidden) return null;
  return (
    <section className="rounded-md p-4 ring-1 ring-slate-200" aria-label="Buy now">
      <h3 className="text-sm font-semibold">{asksApproval ? "Or at the current price" : "Or buy now at the current price"}</h3>
      <div className="mt-2 grid items-end gap-3 sm:grid-cols-[1fr_auto]">
        <Field
          label={`Maximum total (${currency}, optional)`}
          name="maximumTotal"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          value={maximumTotal}
          onChange={(e) => onChange(e.target.value)}
          error={error ? [error] : undefined}
        />
        {asksApproval ? null : (
          <Button type="submit" variant="secondary" disabled={pending}>
            {pending ? "Placing…" : "Buy now"}
          </Button>
        )}
      </div>
    </section>
  );
}
