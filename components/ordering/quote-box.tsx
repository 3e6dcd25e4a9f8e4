import { Button } from "@/components/ui/button";
import { formatCountdown } from "./quote-countdown";

/**
 * The quote step: ask for a quote, see its total and how long it holds, and place the order
 * at that total while it does. An expired or spent quote offers a new one.
 */
export function QuoteBox({
  total,
  secondsLeft,
  hadQuote,
  asking,
  placing,
  placeLabel,
  onQuote,
  onPlace,
}: {
  /** The live quote's total in words; null when there is none to order from. */
  total: string | null;
  secondsLeft: number | null;
  hadQuote: boolean;
  asking: boolean;
  placing: boolean;
  /** "Place order"; null when the order will wait for an approver (the approval box asks, at this total). */
  placeLabel: string | null;
  onQuote: () => void;
  onPlace: () => void;
}) {
  const expired = secondsLeft === 0;
  return (
    <section className="rounded-md bg-slate-50 p-4 ring-1 ring-slate-200" aria-label="Quote">
      <h3 className="text-sm font-semibold">Quote, then order</h3>
      {total !== null ? (
        <div className="mt-2 text-sm" data-testid="quote">
          <p>
            Total <strong data-testid="quote-total">{total}</strong>{" "}
            {expired ? (
              <span className="font-medium text-red-700" data-testid="quote-expired">
                — expired
              </span>
            ) : (
              <span className="text-slate-600" aria-live="polite">
                — valid for <span data-testid="quote-countdown">{formatCountdown(secondsLeft ?? 0)}</span>
              </span>
            )}
          </p>
        </div>
      ) : (
        <p className="mt-1 text-sm text-slate-600">A quote fixes the price for a few minutes.</p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {total !== null && !expired ? (
          placeLabel !== null ? (
            <Button type="button" disabled={placing} onClick={onPlace}>
              {placing ? "Placing…" : placeLabel}
            </Button>
          ) : (
            <p className="text-sm text-slate-600">Approval is asked at this total, below.</p>
          )
        ) : (
          <Button type="button" disabled={asking} onClick={onQuote}>
            {asking ? "Getting a quote…" : hadQuote ? "Get a new quote" : "Get quote"}
          </Button>
        )}
      </div>
    </section>
  );
}
