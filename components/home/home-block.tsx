import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";

/**
 * One block of the home page: a titled card that says what it counts and links to the
 * page where one acts on it. Every role's section is made of these.
 */
export function HomeBlock({
  title,
  href,
  linkLabel,
  testId,
  wide = false,
  children,
}: {
  title: string;
  /** Where one acts on what the block shows. */
  href?: string;
  linkLabel?: string;
  testId?: string;
  /** Spans both columns on a wide screen (a list that needs the room). */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      data-testid={testId}
      aria-labelledby={testId ? `${testId}-title` : undefined}
      className={`min-w-0 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 ${wide ? "lg:col-span-2" : ""}`}
    >
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={testId ? `${testId}-title` : undefined} className="text-base font-semibold text-slate-900">
          {title}
        </h3>
        {href ? (
          <Link href={href} className="text-sm font-medium text-brand-700 hover:underline">
            {linkLabel ?? "Open"} <span aria-hidden="true">→</span>
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/** A role's group of blocks, under its own heading. */
export function HomeSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mb-8">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
      <div className="grid gap-4 lg:grid-cols-2">{children}</div>
    </section>
  );
}
