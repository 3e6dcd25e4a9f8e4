import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

/** Buying without a quote, at the current price, under a ceiling the buyer may set. The form's submit. */
export function BuyNow({
  currency,
  maximumTotal,
  error,
  onChange,
  pending,
  asksApproval = false,
}: {
  currency: string;
  maximumTotal: string;
  error?: string;
  onChange: (maximumTotal: string) => void;
  pending: boolean;
  /** The order will wait for an approver: the button asks for approval rather than buying. */
  asksApproval?: boolean;
}) {
  return (
    <section className="rounded-md p-4 ring-1 ring-slate-200" aria-label="Buy now">
      <h3 className="text-sm font-semibold">Or buy now at the current price</h3>
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
        <Button type="submit" variant="secondary" disabled={pending}>
          {asksApproval ? (pending ? "Sending…" : "Ask for approval") : pending ? "Placing…" : "Buy now"}
          {asksApproval && !pending ? <span className="sr-only"> at the current price</span> : null}
        </Button>
      </div>
    </section>
  );
}
