"use client";

import { useState, type FormEvent } from "react";
import type { ProductView } from "@/lib/catalog/product-view";
import { formatMoney, toMinor } from "@/lib/money";
import { faceCurrencyOf, formatFaceValue } from "@/lib/catalog/face-value";
import { callApi, type ApiProblem } from "@/components/api-client";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { orderProblemMessage } from "./order-errors";
import { checkPhone, checkQuantity, checkValue, gridValues } from "./purchase-rules";
import { formatCountdown, useSecondsLeft } from "./quote-countdown";
import { usePlaceOrder } from "./use-place-order";
import { FundsShortfall } from "./funds-shortfall";
import { approvalReasonFor, NeedsApproval, SpendLimitsNote } from "./spend-notice";
import type { RemainingSpend } from "@/lib/spend/get-remaining-spend";

type Quote = { id: string; total: number; currency: string; expiresAtUtc: string; expiresInMs: number; correlationId?: string };
/** A quote as held by the page: `deadline` is on the monotonic clock (see useSecondsLeft). */
type HeldQuote = Quote & { deadline: number };
/** A moment `ms` from now on the page's monotonic clock (called from event handlers only). */
const deadlineIn = (ms: number) => performance.now() + ms;
/** Answers after which the held quote can never be used again. */
const QUOTE_GONE = new Set(["quote_expired", "quote_used", "quote_not_found", "not_found"]);
type Confirm = { body: Record<string, unknown>; totalMinor: bigint; availableMinor: bigint | null };
type Errors = Partial<Record<"variant" | "value" | "quantity" | "clientReference" | "phoneNumber" | "maximumTotal", string>>;

export function OrderForm({
  product,
  defaultReference,
  confirmAbove,
  spend = null,
}: {
  product: ProductView;
  defaultReference: string;
  confirmAbove: string;
  spend?: RemainingSpend | null;
}) {
  const byVariant = product.variants.length > 0;
  const grid = gridValues(product);
  const money = (amount: number | bigint) =>
    formatMoney(typeof amount === "bigint" ? amount : toMinor(amount, product.currency), product.currency);
  // A value range is chosen in the card's face currency; what it costs (sell currency) comes with the quote.
  const faceCurrency = faceCurrencyOf(product);
  const face = (amount: number) => formatFaceValue(amount, faceCurrency);
  const valueLabel = `Face value${faceCurrency ? ` (${faceCurrency})` : ""}`;

  const [variantId, setVariantId] = useState(product.variants[0]?.id ?? "");
  const [value, setValue] = useState(grid?.[0]?.toString() ?? product.minimumValue?.toString() ?? "");
  const [quantity, setQuantity] = useState("1");
  const [clientReference, setClientReference] = useState(defaultReference);
  const [phoneNumber, setPhoneNumber] = useState("");
  const [maximumTotal, setMaximumTotal] = useState("");
  const [approvalReason, setApprovalReason] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [quote, setQuote] = useState<HeldQuote | null>(null);
  const [quoting, setQuoting] = useState(false);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [quoteProblem, setQuoteProblem] = useState<ApiProblem | null>(null);
  const { place, pending, problem, resuming, clearProblem } = usePlaceOrder(product.id);
  const secondsLeft = useSecondsLeft(quote?.deadline ?? null, quote?.expiresInMs ?? 0);
  const quoteExpired = secondsLeft === 0;
  // Any answer saying the quote is gone clears it: the box must never offer a dead quote.
  const liveQuote = problem && QUOTE_GONE.has(problem.code) ? null : quote;
  /** A corrected field loses its old error at once. */
  const edited = (field: keyof Errors) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  function validate(): boolean {
    const next: Errors = {};
    if (byVariant && !product.variants.some((v) => v.id === variantId)) next.variant = "Choose a variant.";
    if (!byVariant) next.value = checkValue(product, value) ?? undefined;
    next.quantity = checkQuantity(quantity) ?? undefined;
    if (!clientReference.trim()) next.clientReference = "Enter a client reference.";
    else if (clientReference.trim().length > 100) next.clientReference = "Use at most 100 characters.";
    next.phoneNumber = checkPhone(product, phoneNumber) ?? undefined;
    if (maximumTotal.trim() && !(Number(maximumTotal) > 0)) next.maximumTotal = "Enter an amount above zero, or leave it empty.";
    const clean = Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as Errors;
    setErrors(clean);
    return Object.keys(clean).length === 0;
  }

  const item = () => ({
    productId: product.id,
    ...(byVariant ? { variantId } : { value: Number(value) }),
    quantity: Number(quantity),
    currency: product.currency,
  });
  const extras = () => ({
    clientReference: clientReference.trim(),
    ...(product.type === "phone-top-up" ? { phoneNumber: phoneNumber.trim() } : {}),
    ...(approvalReason.trim() ? { approvalReason: approvalReason.trim() } : {}),
  });

  async function getQuote() {
    clearProblem();
    setConfirm(null);
    if (!validate()) return;
    setQuoting(true);
    const result = await callApi<Quote>("POST", "/api/quotes", item());
    setQuoting(false);
    if (result.ok) setQuote({ ...result.data, deadline: deadlineIn(result.data.expiresInMs) });
    else {
      setQuote(null);
      showProblemFields(result.problem.errors);
      setQuoteProblem(result.problem);
    }
  }
  function showProblemFields(fieldErrors?: Record<string, string[]>) {
    if (!fieldErrors) return;
    const map: Record<string, keyof Errors> = {
      "item.quantity": "quantity",
      quantity: "quantity",
      value: "value",
      "item.value": "value",
      variantId: "variant",
      clientReference: "clientReference",
      phoneNumber: "phoneNumber",
      maximumTotal: "maximumTotal",
    };
    setErrors(Object.fromEntries(Object.entries(fieldErrors).flatMap(([k, v]) => (map[k] ? [[map[k], v[0]]] : []))) as Errors);
  }

  /** Orders above the admin's threshold get a second look, with the balance after the order. */
  async function submit(body: Record<string, unknown>, totalMinor: bigint | null) {
    setQuoteProblem(null);
    const threshold = toMinor(Number(confirmAbove), product.currency);
    if (totalMinor !== null && totalMinor > threshold && !confirm) {
      const funds = await callApi<{ availableMinor: string }>("GET", `/api/orders/funds?currency=${product.currency}`);
      setConfirm({ body, totalMinor, availableMinor: funds.ok ? BigInt(funds.data.availableMinor) : null });
      return;
    }
    setConfirm(null);
    await place(body);
  }

  function placeFromQuote() {
    if (!liveQuote || quoteExpired || !validate()) return;
    void submit({ quoteId: liveQuote.id, ...extras() }, toMinor(liveQuote.total, liveQuote.currency));
  }

  function buyNow(event?: FormEvent) {
    event?.preventDefault();
    clearProblem();
    if (!validate()) return;
    const max = maximumTotal.trim() ? Number(maximumTotal) : undefined;
    const estimate = max !== undefined ? toMinor(max, product.currency) : estimateMinor();
    void submit({ item: item(), ...extras(), ...(max !== undefined ? { maximumTotal: max } : {}) }, estimate);
  }

  function estimateMinor(): bigint | null {
    const variant = product.variants.find((v) => v.id === variantId);
    return variant ? toMinor(variant.price, product.currency) * BigInt(Number(quantity) || 0) : null;
  }

  const shown = problem ?? quoteProblem;
  const maximumMinor = maximumTotal.trim() && Number(maximumTotal) > 0 ? toMinor(Number(maximumTotal), product.currency) : null;
  const message = shown ? orderProblemMessage(shown, { listedMinor: estimateMinor(), maximumMinor, money }) : null;
  const quotedTotal = typeof shown?.quotedTotal === "number" ? shown.quotedTotal : null;
  // Said before submitting: the total in view (quote, ceiling or list price) against the buyer's limits.
  const approvalWhy = approvalReasonFor(
    spend,
    liveQuote ? toMinor(liveQuote.total, product.currency) : (maximumMinor ?? estimateMinor()),
  );
  const askReason = approvalWhy !== null || problem?.code === "approval_required";

  return (
    <form onSubmit={buyNow} noValidate className="space-y-4" aria-label="Order this product">
      {resuming ? <Notice tone="info">Finishing the order you submitted before the page reloaded…</Notice> : null}
      {byVariant ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Variant</legend>
          <div className="mt-2 space-y-2">
            {product.variants.map((v) => (
              <label
                key={v.id}
                className="flex items-center justify-between gap-3 rounded-md px-3 py-2 text-sm ring-1 ring-slate-200 has-[:checked]:ring-2 has-[:checked]:ring-brand-500"
              >
                <span className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="variant"
                    value={v.id}
                    checked={variantId === v.id}
                    onChange={() => {
                      setVariantId(v.id);
                      setQuote(null);
                    }}
                  />
                  {v.displayValue}
                </span>
                <span className="font-medium">{money(v.price)}</span>
              </label>
            ))}
          </div>
          {errors.variant ? <p className="mt-1 text-sm text-red-600">{errors.variant}</p> : null}
        </fieldset>
      ) : grid ? (
        <div className="space-y-1">
          <label htmlFor="field-value" className="block text-sm font-medium text-slate-700">
            {valueLabel}
          </label>
          <select
            id="field-value"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setQuote(null);
            }}
            className="block w-full rounded-md bg-white px-3 py-2 text-sm ring-1 ring-slate-300"
          >
            {grid.map((v) => (
              <option key={v} value={v}>
                {face(v)}
              </option>
            ))}
          </select>
          <p className="text-xs text-slate-500">The price in {product.currency} comes with the quote.</p>
          {errors.value ? (
            <p className="text-sm text-red-600" data-testid="error-value">
              {errors.value}
            </p>
          ) : null}
        </div>
      ) : (
        <Field
          label={valueLabel}
          name="value"
          type="number"
          inputMode="decimal"
          min={product.minimumValue ?? undefined}
          max={product.maximumValue ?? undefined}
          step={product.valueStep ?? undefined}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setQuote(null);
            edited("value");
          }}
          error={errors.value ? [errors.value] : undefined}
          hint={`From ${face(product.minimumValue ?? 0)} to ${face(product.maximumValue ?? 0)}${product.valueStep ? ` in steps of ${face(product.valueStep)}` : ""}. The price in ${product.currency} comes with the quote.`}
        />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Quantity"
          name="quantity"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          value={quantity}
          onChange={(e) => {
            setQuantity(e.target.value);
            setQuote(null);
            edited("quantity");
          }}
          error={errors.quantity ? [errors.quantity] : undefined}
        />
        <Field
          label="Client reference"
          name="clientReference"
          value={clientReference}
          maxLength={100}
          onChange={(e) => {
            setClientReference(e.target.value);
            edited("clientReference");
          }}
          error={errors.clientReference ? [errors.clientReference] : undefined}
        />
      </div>
      {product.type === "phone-top-up" ? (
        <Field
          label="Phone number to top up"
          name="phoneNumber"
          type="tel"
          autoComplete="off"
          placeholder="+447700900123"
          value={phoneNumber}
          onChange={(e) => {
            setPhoneNumber(e.target.value);
            edited("phoneNumber");
          }}
          error={errors.phoneNumber ? [errors.phoneNumber] : undefined}
        />
      ) : null}

      <SpendLimitsNote spend={spend} />
      {askReason ? (
        <NeedsApproval
          what={`This order needs approval${approvalWhy ? `: ${approvalWhy}` : "."} It is not placed until another person with the approver role agrees.`}
          reason={approvalReason}
          onReason={setApprovalReason}
          error={problem?.errors?.approvalReason}
        />
      ) : null}

      {message ? (
        <Notice
          tone={shown?.code === "outcome_unknown" ? "warning" : "error"}
          title={message.title}
          correlationId={shown?.correlationId}
          testId="order-problem"
        >
          {message.detail}
          {shown?.code === "insufficient_funds" ? (
            <FundsShortfall
              currency={product.currency}
              neededMinor={liveQuote ? toMinor(liveQuote.total, product.currency) : estimateMinor()}
              money={money}
            />
          ) : null}
          {quotedTotal !== null ? (
            <span className="mt-2 block">
              New total: <strong data-testid="new-price">{money(quotedTotal)}</strong>.{" "}
              <Button
                type="button"
                className="ml-2"
                onClick={() => {
                  setMaximumTotal(String(quotedTotal));
                  void submit({ item: item(), ...extras(), maximumTotal: quotedTotal }, toMinor(quotedTotal, product.currency));
                }}
              >
                Buy at {money(quotedTotal)}
              </Button>
            </span>
          ) : null}
        </Notice>
      ) : null}

      {confirm ? (
        <div
          className="rounded-md bg-amber-50 p-4 ring-1 ring-amber-200"
          role="alertdialog"
          aria-label="Confirm a large order"
          data-testid="confirm-order"
        >
          <p className="text-sm font-medium text-amber-900">
            This order is above {money(toMinor(Number(confirmAbove), product.currency))}. Please confirm.
          </p>
          <dl className="mt-2 grid grid-cols-2 gap-1 text-sm text-amber-900">
            <dt>Order total</dt>
            <dd className="text-right font-medium">{money(confirm.totalMinor)}</dd>
            <dt>Available now</dt>
            <dd className="text-right">{confirm.availableMinor === null ? "unknown" : money(confirm.availableMinor)}</dd>
            <dt>Available after this order</dt>
            <dd className="text-right font-medium" data-testid="available-after">
              {confirm.availableMinor === null ? "unknown" : money(confirm.availableMinor - confirm.totalMinor)}
            </dd>
          </dl>
          <div className="mt-3 flex gap-2">
            <Button type="button" disabled={pending} onClick={() => void place(confirm.body).then(() => setConfirm(null))}>
              Confirm order
            </Button>
            <Button type="button" variant="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}

      <section className="rounded-md bg-slate-50 p-4 ring-1 ring-slate-200" aria-label="Quote">
        <h3 className="text-sm font-semibold">Quote, then order</h3>
        {liveQuote ? (
          <div className="mt-2 text-sm" data-testid="quote">
            <p>
              Total <strong data-testid="quote-total">{money(liveQuote.total)}</strong>{" "}
              {quoteExpired ? (
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
          {liveQuote && !quoteExpired ? (
            <Button type="button" disabled={pending} onClick={placeFromQuote}>
              {pending ? "Placing…" : "Place order"}
            </Button>
          ) : (
            <Button type="button" disabled={quoting} onClick={() => void getQuote()}>
              {quoting ? "Getting a quote…" : quote ? "Get a new quote" : "Get quote"}
            </Button>
          )}
        </div>
      </section>

      <section className="rounded-md p-4 ring-1 ring-slate-200" aria-label="Buy now">
        <h3 className="text-sm font-semibold">Or buy now at the current price</h3>
        <div className="mt-2 grid items-end gap-3 sm:grid-cols-[1fr_auto]">
          <Field
            label={`Maximum total (${product.currency}, optional)`}
            name="maximumTotal"
            type="number"
            inputMode="decimal"
            min={0}
            step="0.01"
            value={maximumTotal}
            onChange={(e) => {
              setMaximumTotal(e.target.value);
              edited("maximumTotal");
            }}
            error={errors.maximumTotal ? [errors.maximumTotal] : undefined}
          />
          <Button type="submit" variant="secondary" disabled={pending}>
            {pending ? "Placing…" : "Buy now"}
          </Button>
        </div>
      </section>
    </form>
  );
}
