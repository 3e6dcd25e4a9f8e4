"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/** Re-reads the page once, `afterMs` from now: a figure that says "updating" shows the new one without a reload. */
export function RefreshSoon({ afterMs }: { afterMs: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setTimeout(() => router.refresh(), afterMs);
    return () => clearTimeout(timer);
  }, [afterMs, router]);
  return null;
}
