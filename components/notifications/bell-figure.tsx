"use client";

import { useEffect, useState } from "react";

/** Sent by MarkOpenedRead when the page opened read some of one's notifications (`detail`: how many). */
export const READ_EVENT = "notifications:read";

/**
 * The bell's label and red figure. The count comes with the page; what the page opened reads
 * (MarkOpenedRead) is taken off here at once, without drawing the page again (a refresh of the
 * page could overtake a navigation the person has just started).
 */
export function BellFigure({ count, cap, testId }: { count: number | null; cap: number; testId?: string }) {
  const [read, setRead] = useState({ count, less: 0 });
  useEffect(() => {
    const onRead = (event: Event) =>
      setRead((now) => ({ ...now, less: now.less + Number((event as CustomEvent<number>).detail || 0) }));
    window.addEventListener(READ_EVENT, onRead);
    return () => window.removeEventListener(READ_EVENT, onRead);
  }, []);
  // A new count from the server replaces what was taken off the old one.
  const less = read.count === count ? read.less : 0;
  const shownCount = count === null ? null : Math.max(0, count - less);
  const shown = shownCount === null ? null : shownCount >= cap ? `${cap - 1}+` : String(shownCount);
  const label =
    shownCount === null ? "Notifications" : shownCount === 0 ? "Notifications, none unread" : `Notifications, ${shown} unread`;
  return (
    <>
      <span className="sr-only">{label}</span>
      {shownCount ? (
        <span
          aria-hidden="true"
          data-testid={testId}
          className="absolute right-0.5 top-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-semibold leading-5 text-white"
        >
          {shown}
        </span>
      ) : null}
    </>
  );
}
