import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

/** Buying without a quote, at the current price, under a ceiling the buyer may set. The form's submit. */
export function BuyNow({
  currency,
  maximumTotal,
  error,
  onChange,
  pending,
}: {
  currency: string;
  maximumTotal: string;
  error?: string;
  onChange: (maximumTotal: string) => void;
  pending: boolean;
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
          {pending ? "Placing…" : "Buy now"}
        </Button>
      </div>
    </section>
  );
}
