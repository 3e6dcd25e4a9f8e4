"use client";

import { useEffect, useState } from "react";

/** Sent by MarkOpenedRead when the page opened read some of one's notifications. */
const READ_EVENT = "notifications:read";

/** What the pages opened in this tab have read: how many, and when the server read them (ms). */
const reads: { at: number; marked: number }[] = [];

/** Called by MarkOpenedRead with the server's answer: kept for every bell, and told to those drawn. */
export function recordRead(marked: number, at: number) {
  reads.push({ marked, at });
  if (reads.length > 50) reads.shift();
  window.dispatchEvent(new Event(READ_EVENT));
}

/**
 * The bell's label and red figure. The count comes with the page, with when it was counted; what
 * was read after that (MarkOpenedRead, answered by the server with its time) is taken off here,
 * without drawing the page again (a refresh could overtake a navigation the person has just
 * started). By time, not by the order of events: a bell drawn after the read (a boundary revealed
 * or drawn again later) takes it off too, and a count made after it is not taken off twice.
 */
export function BellFigure({
  count,
  countedAt,
  cap,
  testId,
}: {
  count: number | null;
  countedAt: number;
  cap: number;
  testId?: string;
}) {
  // Until the first effect the figure is the server's, so hydration finds what the server drew.
  const [drawn, redraw] = useState(0);
  useEffect(() => {
    const onRead = () => redraw((n) => n + 1);
    window.addEventListener(READ_EVENT, onRead);
    // A read answered between this bell's count and its first effect counts too.
    onRead();
    return () => window.removeEventListener(READ_EVENT, onRead);
  }, []);
  const less = drawn === 0 ? 0 : reads.filter((read) => read.at > countedAt).reduce((sum, read) => sum + read.marked, 0);
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
