import type { ReactNode } from "react";

/**
 * A wide table scrolls sideways inside its card on a narrow screen instead of widening
 * the page. The region is focusable, so a keyboard user can scroll it with the arrows;
 * `relative` keeps screen-reader-only text (absolutely placed) inside it rather than past the page edge;
 * `scroll-hint` (app/globals.css) shades the edge that has more of the table beyond it.
 */
export function TableScroll({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`scroll-hint relative overflow-x-auto ${className}`}>
      {children}
    </div>
  );
}
