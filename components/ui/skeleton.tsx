import type { ReactNode } from "react";

/**
 * What a person sees while a page or a section waits for its data: grey shapes where the
 * content will be, marked busy and announced once ("Loading …" in a status, in small print or
 * for screen readers only), as the orders list's skeleton does (orders-table-skeleton.tsx).
 * Every skeleton is a group named "Loading": tests wait for none to be left before they read a
 * page (`[aria-label="Loading"]`).
 */
export function Busy({
  label,
  showLabel = false,
  testId = "skeleton",
  className = "",
  children,
}: {
  label: string;
  /** Print the label above the shapes (a whole page's skeleton), not only for screen readers. */
  showLabel?: boolean;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="group" aria-label="Loading" aria-busy="true" className={className} data-testid={testId}>
      <p role="status" className={showLabel ? "mb-3 text-sm text-slate-600" : "sr-only"}>
        {label}
      </p>
      {children}
    </div>
  );
}

/** One grey shape; `className` gives its size (e.g. "h-24"). */
export function Bone({ className = "" }: { className?: string }) {
  return <div aria-hidden="true" className={`rounded-md bg-slate-200/70 motion-safe:animate-pulse ${className}`} />;
}
