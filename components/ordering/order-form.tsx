"use client";

import { useState, type FormEvent } from "react";
import type { ProductView } from "@/lib/catalog/product-view";
import { formatMoney, toMinor } from "@/lib/money";
import type { RemainingSpend } from "@/lib/spend/get-remaining-spend";
import { Notice } from "@/components/ui/notice";
import { readAvailableMinor } from "./available-funds";
import { BuyNow } from "./buy-now";
import { ConfirmOrder, type HeldOrder } from "./confirm-order";
import { ItemChoice } from "./item-choice";
import { OrderDetails } from "./order-details";
import { OrderProblem } from "./order-problem";
import { QuoteBox } from "./quote-box";
import { approvalReasonFor, NeedsApproval, SpendLimitsNote } from "./spend-notice";
import { useOrderFields, type OrderFields } from "./use-order-fields";
import { useOrderQuote } from "./use-order-quote";
import { usePlaceOrder } from "./use-place-order";

/** Answers after which the held quote can never be used again. */
const QUOTE_GONE = new Set(["quote_expired", "quote_used", "quote_not_found", "not_found"]);

/**
 * One product's order: choose the item, then either quote and place at the quoted total, or
 * buy now at the current price under an optional ceiling. An order above the admin's
 * confirmation amount asks again; one above the buyer's limits asks for a reason and waits
 * for an approver (the server decides both again).
 */
export function OrderForm({
  product,
  defaultReference,
  confirmAbove,
  spend = null,
  draftOwner,
}: {
  product: ProductView;
  defaultReference: string;
  confirmAbove: string;
  spend?: RemainingSpend | null;
  /** Whose typing this tab keeps (the signed-in person's id): nobody else gets it back. */
  draftOwner: string;
}) {
  const money = (amount: number | bigint) =>
    formatMoney(typeof amount === "bigint" ? amount : toMinor(amount, product.currency), product.currency);
  const order = useOrderFields(product, defaultReference, draftOwner);
  const { fields, errors } = order;
  const quote = useOrderQuote({ onRefused: (problem) => order.showServerErrors(problem.errors) });
  const { place, pending, problem, resuming, clearProblem } = usePlaceOrder(product.id);
  const [held, setHeld] = useState<HeldOrder | null>(null);
  const [reasonMissing, setReasonMissing] = useState(false);
  // Any answer saying the quote is gone clears it: the box must never offer a dead quote.
  const liveQuote = problem && QUOTE_GONE.has(problem.code) ? null : quote.quote;
  const confirmAboveMinor = toMinor(Number(confirmAbove), product.currency);
  /** A change to what is bought drops the quote for the old item. */
  const edit = (name: keyof OrderFields, value: string) => {
    order.change(name, value);
    if (name === "approvalReason") setReasonMissing(false);
    if (name === "variantId" || name === "value" || name === "quantity") quote.drop();
  };

  function getQuote() {
    clearProblem();
    setHeld(null);
    if (order.validate()) quote.ask(order.item);
  }

  /**
   * An order that will wait for an approver carries the buyer's reason: without one, the field
   * says so and nothing is sent. Orders above the admin's threshold get a second look, with the
   * balance after the order.
   */
  async function submit(body: Record<string, unknown>, totalMinor: bigint | null) {
    quote.clearProblem();
    if (waitsForApproval(totalMinor) && !fields.approvalReason.trim()) {
      setReasonMissing(true);
      document.getElementById("field-approvalReason")?.focus();
      return;
    }
    if (totalMinor !== null && totalMinor > confirmAboveMinor && !held) {
      setHeld({ body, totalMinor, availableMinor: await readAvailableMinor(product.currency) });
      return;
    }
    setHeld(null);
    await place(body);
  }

  function placeFromQuote() {
    if (!liveQuote || quote.expired || !order.validate()) return;
    void submit({ quoteId: liveQuote.id, ...order.extras }, toMinor(liveQuote.total, liveQuote.currency));
  }

  function buyNow() {
    clearProblem();
    if (!order.validate()) return;
    const max = order.maximumTotal;
    const estimate = max !== undefined ? toMinor(max, product.currency) : order.listedMinor;
    void submit({ item: order.item, ...order.extras, ...(max !== undefined ? { maximumTotal: max } : {}) }, estimate);
  }

  function buyAt(total: number) {
    edit("maximumTotal", String(total));
    void submit({ item: order.item, ...order.extras, maximumTotal: total }, toMinor(total, product.currency));
  }

  // The server asked for a reason: that is the reason field's message, not a refused order.
  const serverAsksReason = problem?.code === "approval_required";
  const shown = serverAsksReason ? quote.problem : (problem ?? quote.problem);
  const totalInView = liveQuote ? toMinor(liveQuote.total, product.currency) : null;
  /** Whether an order of this total waits for an approver (the server decides again on submit). */
  function waitsForApproval(totalMinor: bigint | null) {
    return serverAsksReason || approvalReasonFor(spend, totalMinor) !== null;
  }
  // One action when the order will wait: the approval box's button asks, at the quote's total
  // while a quote holds, else at the current price (under the ceiling, if one is set).
  const quoteHolds = liveQuote !== null && !quote.expired;
  const askedTotal = quoteHolds ? totalInView : (order.maximumMinor ?? order.listedMinor);
  // Said before submitting: that total (quote, ceiling or list price) against the buyer's limits.
  const approvalWhy = approvalReasonFor(spend, askedTotal);
  const asking = waitsForApproval(askedTotal);
  function askForApproval() {
    if (quoteHolds) placeFromQuote();
    else buyNow();
  }
  /** Enter in a field does what the form's one main button does. */
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (asking) askForApproval();
    else buyNow();
  }
  const askedAt = quoteHolds
    ? `At the quote's total, ${money(liveQuote!.total)}.`
    : order.maximumMinor !== null
      ? `At the current price, never above ${money(order.maximumMinor)}.`
      : `At the current price${order.listedMinor !== null ? `, about ${money(order.listedMinor)}` : ""}.`;
  const thisOrder =
    quoteHolds && totalInView !== null
      ? `${money(totalInView)} (the quote)`
      : order.maximumMinor !== null
        ? `at most ${money(order.maximumMinor)}`
        : order.listedMinor !== null
          ? `about ${money(order.listedMinor)} at the listed price`
          : null;
  // A reason once typed stays in view while it is sent (a new attempt clears the last problem).
  const askReason = approvalWhy !== null || serverAsksReason || fields.approvalReason !== "";
  const reasonError = reasonMissing ? ["Say why this order is needed: an approver reads it."] : problem?.errors?.approvalReason;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Order this product">
      {resuming ? <Notice tone="info">Finishing the order you submitted before the page reloaded…</Notice> : null}
      {order.restored && !resuming ? (
        <Notice tone="info" testId="order-draft-restored">
          What you typed for this product earlier is back, as you left it.{" "}
          <button
            type="button"
            onClick={() => {
              quote.drop();
              order.startOver();
            }}
            className="font-medium underline"
          >
            Start over
          </button>
        </Notice>
      ) : null}
      <ItemChoice
        product={product}
        variantId={fields.variantId}
        value={fields.value}
        errors={errors}
        onChange={edit}
        money={money}
      />
      <OrderDetails phoneTopUp={product.type === "phone-top-up"} fields={fields} errors={errors} onChange={edit} />

      <SpendLimitsNote spend={spend} thisOrder={thisOrder} />

      {shown ? (
        <OrderProblem
          problem={shown}
          listedMinor={order.listedMinor}
          maximumMinor={order.maximumMinor}
          neededMinor={totalInView ?? order.listedMinor}
          currency={product.currency}
          money={money}
          onBuyAt={buyAt}
        />
      ) : null}

      {held ? (
        <ConfirmOrder
          held={held}
          above={money(confirmAboveMinor)}
          money={money}
          pending={pending}
          confirmLabel={waitsForApproval(held.totalMinor) ? "Confirm and ask for approval" : "Confirm order"}
          onConfirm={() => void place(held.body).then(() => setHeld(null))}
          onCancel={() => setHeld(null)}
        />
      ) : null}

      <QuoteBox
        total={liveQuote ? money(liveQuote.total) : null}
        secondsLeft={quote.secondsLeft}
        hadQuote={quote.quote !== null}
        asking={quote.asking}
        placing={pending}
        placeLabel={asking ? null : "Place order"}
        onQuote={getQuote}
        onPlace={placeFromQuote}
      />

      <BuyNow
        currency={product.currency}
        maximumTotal={fields.maximumTotal}
        error={errors.maximumTotal}
        onChange={(maximumTotal) => edit("maximumTotal", maximumTotal)}
        pending={pending}
        asksApproval={asking}
        hidden={asking && quoteHolds}
      />
      {askReason ? (
        <NeedsApproval
          what={
            approvalWhy
              ? `This order needs approval because ${approvalWhy}. It is not placed until another person with the approver role agrees.`
              : serverAsksReason
                ? problem.detail
                : "This order needs approval. It is not placed until another person with the approver role agrees."
          }
          reason={fields.approvalReason}
          onReason={(reason) => edit("approvalReason", reason)}
          error={reasonError}
          ask={asking ? { at: askedAt, pending, onAsk: askForApproval } : undefined}
        />
      ) : null}
    </form>
  );
}
