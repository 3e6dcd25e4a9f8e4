import { Suspense, type ReactNode } from "react";

/** How long a page waits for a section's data before it sends the section's skeleton instead. */
export const QUICK_MS = 50;

/**
 * A section whose data is `ready`: in the page's first bytes when it settles within QUICK_MS
 * (a cached read, a quick query), else behind Suspense with `fallback`, streamed when it comes.
 * Not always Suspense: React reveals a boundary still waiting when the shell was sent no sooner
 * than about 300 ms after the first paint, however soon its data came
 * (docs/decisions/0008-pages-sent-whole-unless-slow.md).
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
