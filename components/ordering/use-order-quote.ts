"use client";

import { useState } from "react";
import type { ApiProblem } from "@/components/api-client";
import { useApiMutation } from "@/components/use-api-mutation";
import { useSecondsLeft } from "./quote-countdown";

type Quote = { id: string; total: number; currency: string; expiresAtUtc: string; expiresInMs: number; correlationId?: string };
/** A quote as held by the page: `deadline` is on the monotonic clock (see useSecondsLeft). */
type HeldQuote = Quote & { deadline: number };

/**
 * The binding quote for the item in the form: asked for, held with its countdown, and
 * dropped when the item changes or a refusal comes back.
 */
export function useOrderQuote({ onRefused }: { onRefused: (problem: ApiProblem) => void }) {
  const [quote, setQuote] = useState<HeldQuote | null>(null);
  const asking = useApiMutation<Quote, Record<string, unknown>>((item) => ({ method: "POST", url: "/api/quotes", body: item }), {
    // The monotonic clock is read when the answer arrives, never during a render.
    onSuccess: (answer) => setQuote({ ...answer, deadline: performance.now() + answer.expiresInMs }),
    onError: (problem) => {
      setQuote(null);
      onRefused(problem);
    },
  });
  const secondsLeft = useSecondsLeft(quote?.deadline ?? null, quote?.expiresInMs ?? 0);
  return {
    quote,
    secondsLeft,
    expired: secondsLeft === 0,
    ask: (item: Record<string, unknown>) => asking.send(item),
    asking: asking.pending,
    problem: asking.problem,
    clearProblem: () => {
      if (asking.problem) asking.reset();
    },
    drop: () => setQuote(null),
  };
}
