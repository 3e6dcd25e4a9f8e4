import type { ReactNode } from "react";

/**
 * The less-used filters of a filter form, folded behind a "Filters" button on a phone
 * (below 768 px), where they would otherwise fill the first screen, and always shown from
 * 768 px up. A native <details>: it opens without any script, and the form still sends
 * the fields inside while it is closed. It starts open when one of them is active, so a
 * phone shows what narrows the list. From 768 px up the content is shown whether open or
 * not (`::details-content`) and the button is hidden, so nothing moves as the page loads.
 */
export function FilterFold({ active, children }: { active: number; children: ReactNode }) {
  return (
    <details open={active > 0} className="group md:[&::details-content]:[content-visibility:visible]" data-testid="filter-fold">
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-md bg-white px-3.5 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 md:hidden [&::-webkit-details-marker]:hidden">
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="h-4 w-4 text-slate-500 transition-transform group-open:rotate-90"
          fill="currentColor"
        >
          <path d="M7.2 4.2a.75.75 0 0 1 1.06 0l5.25 5.25a.75.75 0 0 1 0 1.06L8.26 15.8a.75.75 0 1 1-1.06-1.06L11.92 10 7.2 5.26a.75.75 0 0 1 0-1.06Z" />
        </svg>
        Filters
        {active > 0 ? <span className="text-slate-500">({active} active)</span> : null}
      </summary>
      <div className="mt-3 space-y-3 md:mt-0">{children}</div>
    </details>
  );
}
