"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field, TextAreaField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import type { WithdrawalQuote } from "@/lib/withdrawals/quote-withdrawal";
import type { WithdrawalView } from "@/lib/withdrawals/withdrawal-view";
import { utcTime } from "@/components/ui/utc-time";
import { money } from "./format";
import { normalizeAmount } from "./normalize-amount";
import { Select } from "@/components/ui/field";

type Form = { amount: string; currency: string; reason: string };

/**
 * Finance's side of maker-checker: quote (fee, net amount, payout date), then submit the
 * request with a reason. Submitting stores it for another person's approval; nothing is
 * paid out until then. Changing the amount or currency asks for a new quote.
 */
export function WithdrawalRequestForm({ currencies }: { currencies: string[] }) {
  const router = useRouter();
  const [form, setForm] = useState<Form>({ amount: "", currency: currencies[0] ?? "USD", reason: "" });
  const [quote, setQuote] = useState<WithdrawalQuote | null>(null);
  const quoting = useApiMutation<WithdrawalQuote, { amount: string; currency: string }>(
    (body) => ({ method: "POST", url: "/api/withdrawals/quotes", body }),
    { onSuccess: setQuote, onError: () => setQuote(null) },
  );
  const submitting = useApiMutation<WithdrawalView, Form>((body) => ({ method: "POST", url: "/api/withdrawals", body }), {
    onSuccess: () => {
      setQuote(null);
      setForm((f) => ({ ...f, amount: "", reason: "" }));
      router.refresh();
    },
  });
  // One notice for both steps: the problem of the step asked last (each clears the other's).
  const problem = quoting.problem ?? submitting.problem;
  const submitted = submitting.data ?? null;
  const busy = quoting.pending ? "quote" : submitting.pending ? "submit" : null;

  // "1,200.50" or "1.200,50", as the person's locale writes it.
  const amount = normalizeAmount(form.amount, typeof navigator === "undefined" ? "en-US" : navigator.language);
  const quoted = quote !== null && quote.currency === form.currency && Number(quote.amount) === Number(amount);
  const change = (key: keyof Form) => (event: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: event.target.value }));
    if (submitting.saved) submitting.reset();
  };

  function getQuote() {
    // A submitted request stays in view; a refused submit gives way to the quote's outcome.
    if (submitting.problem) submitting.reset();
    quoting.send({ amount, currency: form.currency });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!quoted) return getQuote();
    quoting.reset();
    submitting.send({ amount, currency: form.currency, reason: form.reason });
  }

  const err = (key: string) => problem?.errors?.[key];
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Request a withdrawal">
      {problem && !problem.errors ? (
        <Notice
          tone="error"
          title={problem.code === "withdrawal_above_balance" ? "Above the available balance" : problem.title}
          correlationId={problem.correlationId}
          testId="withdrawal-problem"
        >
          {problem.detail}
        </Notice>
      ) : null}
      {submitted ? (
        <Notice tone="success" title="Request submitted for approval" testId="withdrawal-submitted">
          {money(submitted.amount, submitted.currency)} is waiting for another person with the approver role. It expires unless
          approved by {utcTime(submitted.expiresAt)}.
        </Notice>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        <div className="space-y-1">
          <label htmlFor="withdrawal-currency" className="block text-sm font-medium text-slate-700">
            Currency
          </label>
          <Select id="withdrawal-currency" name="currency" value={form.currency} onChange={change("currency")}>
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </Select>
        </div>
        <Field
          label="Amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 2500.00"
          value={form.amount}
          onChange={change("amount")}
          error={err("amount")}
        />
      </div>
      <TextAreaField
        label="Reason"
        name="reason"
        id="withdrawal-reason"
        rows={2}
        maxLength={500}
        value={form.reason}
        onChange={change("reason")}
        error={err("reason")}
        hint={
          err("reason")
            ? undefined
            : "The approver sees this. Funds go only to the payout details registered with the Issuing Service."
        }
      />

      {quoted ? (
        <dl
          className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-md bg-slate-50 p-3 text-sm ring-1 ring-inset ring-slate-200 sm:grid-cols-4"
          data-testid="withdrawal-quote"
        >
          <div>
            <dt className="text-slate-500">Amount</dt>
            <dd className="font-medium tabular-nums">{money(quote.amount, quote.currency)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Fee</dt>
            <dd className="font-medium tabular-nums">{money(quote.fee, quote.currency)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Paid out (net)</dt>
            <dd className="font-medium tabular-nums" data-testid="quote-net">
              {money(quote.netAmount, quote.currency)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Payout date</dt>
            <dd className="font-medium">{utcTime(quote.payoutDate)}</dd>
          </div>
          {quote.availableBalance !== null ? (
            <p className="col-span-full text-xs text-slate-500">
              Available now: {money(quote.availableBalance, quote.currency)}
              {Number(quote.heldByOtherRequests) > 0
                ? `, of which ${money(quote.heldByOtherRequests, quote.currency)} is in other requests not yet sent`
                : ""}
              . The payout date counts from approval, so it may move.
            </p>
          ) : null}
        </dl>
      ) : null}

      <div className="flex gap-2">
        {quoted ? (
          <Button type="submit" disabled={busy !== null}>
            {busy === "submit" ? "Submitting…" : "Submit for approval"}
          </Button>
        ) : (
          <Button type="button" onClick={getQuote} disabled={busy !== null}>
            {busy === "quote" ? "Getting quote…" : "Get quote"}
          </Button>
        )}
        {quoted ? (
          <Button type="button" variant="secondary" onClick={getQuote} disabled={busy !== null}>
            Quote again
          </Button>
        ) : null}
      </div>
    </form>
  );
}
