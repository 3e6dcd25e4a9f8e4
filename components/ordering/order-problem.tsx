import type { ApiProblem } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { orderProblemMessage } from "./order-errors";
import { FundsShortfall } from "./funds-shortfall";

/**
 * A refused quote or order in the buyer's words. After "not enough funds" it says what the
 * order needs against the wallet; after a price rise it offers to buy at the new total.
 */
export function OrderProblem({
  problem,
  listedMinor,
  maximumMinor,
  neededMinor,
  currency,
  money,
  onBuyAt,
}: {
  problem: ApiProblem;
  /** What the form knew when it sent the order (see OrderContext). */
  listedMinor: bigint | null;
  maximumMinor: bigint | null;
  /** The total in view (the quote's, else the list price), for the shortfall. */
  neededMinor: bigint | null;
  currency: string;
  money: (amount: number | bigint) => string;
  onBuyAt: (total: number) => void;
}) {
  const message = orderProblemMessage(problem, { listedMinor, maximumMinor, money });
  const quotedTotal = typeof problem.quotedTotal === "number" ? problem.quotedTotal : null;
  return (
    <Notice
      tone={problem.code === "outcome_unknown" ? "warning" : "error"}
      title={message.title}
      correlationId={problem.correlationId}
      testId="order-problem"
    >
      {message.detail}
      {problem.code === "insufficient_funds" ? (
        <FundsShortfall currency={currency} neededMinor={neededMinor} money={money} />
      ) : null}
      {quotedTotal !== null ? (
        <span className="mt-2 block">
          New total: <strong data-testid="new-price">{money(quotedTotal)}</strong>.{" "}
          <Button type="button" className="ml-2" onClick={() => onBuyAt(quotedTotal)}>
            Buy at {money(quotedTotal)}
          </Button>
        </span>
      ) : null}
    </Notice>
  );
}
