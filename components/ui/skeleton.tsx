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

/**
 * A whole page's skeleton, for the two routes whose page waits on the upstream before it can say
 * anything (a product, an order: their loading.tsx): grey bars for the title and its line, then
 * cards of content. Every other page renders with the first paint (ARCHITECTURE.md, "Waiting").
 */
export function PageSkeleton() {
  return (
    <div role="group" aria-label="Loading" aria-busy="true" data-testid="page-loading">
      <div className="mb-6" aria-hidden="true">
        <Bone className="h-8 w-56 max-w-full" />
        <Bone className="mt-2 h-4 w-96 max-w-full" />
      </div>
      <p role="status" className="mb-3 text-sm text-slate-600">
        Loading…
      </p>
      <div className="space-y-4" aria-hidden="true">
        <Bone className="h-24" />
        <Bone className="h-64" />
      </div>
    </div>
  );
}
