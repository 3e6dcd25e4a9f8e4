"use client";

import { useEffect, useState } from "react";

/**
 * Seconds left of a quote, ticking. `deadline` is on the page's monotonic clock
 * (performance.now() when the answer arrived, plus the server's expiresInMs), so neither
 * the browser's wall clock nor a change to it moves the countdown.
 */
export function useSecondsLeft(deadline: number | null, lifetimeMs: number): number | null {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  // Until the first tick `now` may predate the quote: never show more than its lifetime.
  return deadline === null ? null : Math.max(0, Math.min(Math.ceil(lifetimeMs / 1000), Math.ceil((deadline - now) / 1000)));
}

export function formatCountdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
