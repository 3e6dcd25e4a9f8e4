"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/**
 * While a request is being sent (its answer lost, the worker resolving it), the page
 * re-reads itself every few seconds so the approver sees the outcome without reloading.
 * The server render is cheap: the upstream sync behind it is throttled.
 */
export function RefreshWhileSending({ active, everyMs = 5_000 }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, router]);
  return null;
}
