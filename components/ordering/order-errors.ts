import type { ApiProblem } from "@/components/api-client";

/** What the form knew when it sent the order, to tell "the price rose" from "your maximum is low". */
export type OrderContext = { listedMinor: bigint | null; maximumMinor: bigint | null; money: (minor: bigint) => string };

/** What each refusal means to a buyer. Branches on the problem's code, never its text. */
export function orderProblemMessage(problem: ApiProblem, context?: OrderContext): { title: string; detail: string } {
  switch (problem.code) {
    case "quote_expired":
      return {
        title: "The quote has expired",
        detail: "Quotes are binding for a few minutes only. Get a new quote to see the current price.",
      };
    case "quote_used":
      return {
        title: "This quote was already used",
        detail: "An order was already placed with it. Get a new quote for another order.",
      };
    case "product_unavailable":
      return {
        title: "This product is not available right now",
        detail: "The Issuing Service is not selling it at the moment. Try again later or choose another product.",
      };
    case "insufficient_funds":
      return {
        title: "Not enough funds in the wallet",
        detail: "The available balance does not cover this order. Ask finance to top up the wallet, or order less.",
      };
    case "price_above_maximum":
      // The buyer's own maximum below the listed price is not a price rise.
      if (context?.maximumMinor != null && context.listedMinor !== null && context.maximumMinor < context.listedMinor) {
        return {
          title: "Your maximum is below the price",
          detail: `The maximum you set (${context.money(context.maximumMinor)}) is below the listed total of ${context.money(context.listedMinor)}.`,
        };
      }
      return {
        title: "The price went up",
        detail:
          context?.maximumMinor != null
            ? `The current price is above the maximum you set (${context.money(context.maximumMinor)}).`
            : "The current price is above the maximum you set.",
      };
    case "outcome_unknown":
      return {
        title: "Not confirmed yet",
        detail: "The Issuing Service has not confirmed the order. Submitting again is safe: it can only ever make one order.",
      };
    case "upstream_key_refused":
      // The form stays as typed (and its draft in this tab): only the quote is dropped.
      return {
        title: "Ordering is paused",
        detail:
          "The Issuing Service refused the back-office's ordering key, so nobody can order until an admin replaces it. Admins have been alerted. Your form is kept: place the order once ordering is back.",
      };
    case "conflict":
      return { title: "Already submitted", detail: problem.detail };
    case "network_error":
      return {
        title: "No connection",
        detail: "The back-office could not be reached. Submitting again is safe: it can only ever make one order.",
      };
    default:
      return { title: problem.title || "The order was not placed", detail: problem.detail };
  }
}
