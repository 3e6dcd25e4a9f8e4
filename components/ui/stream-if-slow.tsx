import { Suspense, type ReactNode } from "react";

/** How long a page waits for a section's data before it sends the section's skeleton instead. */
export const QUICK_MS = 50;

/**
 * A section whose data is `ready`: in the page's first bytes when it settles within QUICK_MS
 * (a cached read, a quick query), else behind Suspense with `fallback`, streamed when it comes.
 *
 * Why not always Suspense: React reveals a boundary that was still waiting when the shell was
 * sent about 300 ms after the first paint at the earliest (it batches reveals), so a section
 * whose data was there in a millisecond still appeared 300 ms late, after the scripts' work
 * (Lighthouse mobile, /catalog: the first card painted at 472-588 ms, the page at 190-326 ms).
 * A slow upstream still gets the skeleton, 50 ms later than before.
 */
export async function StreamIfSlow({
  ready,
  fallback,
  children,
}: {
  ready: Promise<unknown>;
  fallback: ReactNode;
  children: ReactNode;
}) {
  return (await settlesWithin(ready, QUICK_MS)) ? children : <Suspense fallback={fallback}>{children}</Suspense>;
}

/** Whether `promise` settles (either way) within `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    const settled = promise.then(
      () => true,
      () => true,
    );
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
