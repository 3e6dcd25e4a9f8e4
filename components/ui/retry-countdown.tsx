"use client";

import { useEffect, useState, useTransition, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import { useSecondsLeft } from "@/components/ordering/quote-countdown";

/** When the page last asked the server again: several refused sections of one page refresh it once. */
let lastRefresh = -Infinity;

/**
 * A read that was refused for a while (the person's share of the upstream's minute): says what
 * could not be done, counts the seconds down and, at zero, reads the page again by itself
 * (router.refresh: the same URL, what the page already shows stays until the answer comes).
 *
 * Only the sentence is a live region, announced once when it appears; the ticking seconds are a
 * `timer`, which screen readers do not announce on every change.
 */
export function RetryCountdown({
  seconds,
  title,
  children,
  correlationId,
  testId,
}: {
  seconds: number;
  title: string;
  children: ReactNode;
  correlationId?: string;
  testId?: string;
}) {
  const router = useRouter();
  const [deadline] = useState(() => performance.now() + seconds * 1000);
  const left = useSecondsLeft(deadline, seconds * 1000) ?? seconds;
  const [, startTransition] = useTransition();
  useEffect(() => {
    if (left > 0) return;
    const retry = () => {
      if (performance.now() - lastRefresh < 2_000) return;
      lastRefresh = performance.now();
      startTransition(() => router.refresh());
    };
    retry();
    // Still here a while after the retry (its answer lost, or the same wait again): once more.
    const again = setInterval(retry, 5_000);
    return () => clearInterval(again);
  }, [left, router]);

  return (
    <div className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200" data-testid={testId}>
      <div role="status">
        <p className="font-medium">{title}</p>
        <p className="mt-1">{children}</p>
      </div>
      <p className="mt-1">
        {left > 0 ? (
          <>
            Trying again by itself in{" "}
            <span role="timer" className="font-medium tabular-nums" data-testid="retry-seconds">
              {left}
            </span>{" "}
            {left === 1 ? "second" : "seconds"}.
          </>
        ) : (
          "Trying again now…"
        )}
      </p>
      {correlationId ? <p className="mt-1 font-mono text-xs opacity-80">Reference for support: {correlationId}</p> : null}
    </div>
  );
}
