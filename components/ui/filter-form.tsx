import type { ReactNode } from "react";
import { Link } from "@/components/ui/link";
import { Button } from "./button";

/** The look of a filter's input or select. */
export const FILTER_INPUT = "mt-1 w-full rounded-md px-2 py-1.5 text-sm ring-1 ring-slate-300";

/**
 * The GET form above a list: the URL holds the filters, so a filtered list can be shared,
 * reloaded and exported, and works before any script loads. `layout` places the fields.
 */
export function FilterForm({
  label,
  path,
  layout,
  children,
}: {
  label: string;
  path: string;
  layout: string;
  children: ReactNode;
}) {
  return (
    <form
      method="get"
      action={path}
      aria-label={label}
      className={`mb-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 ${layout}`}
    >
      {children}
    </form>
  );
}

/** One labelled field of a filter form. */
export function FilterField({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <label className={`text-sm ${className}`}>
      <span className="block font-medium text-slate-700">{label}</span>
      {children}
    </label>
  );
}

/** A range of UTC days, both ends inclusive: the `from` and `to` of a list's filter (YYYY-MM-DD). */
export function DateRangeFields({ from, to }: { from?: string; to?: string }) {
  return (
    <>
      <FilterField label="From (UTC)">
        <input type="date" name="from" defaultValue={from ?? ""} className={FILTER_INPUT} />
      </FilterField>
      <FilterField label="To (UTC, inclusive)">
        <input type="date" name="to" defaultValue={to ?? ""} className={FILTER_INPUT} />
      </FilterField>
    </>
  );
}

/** Apply and clear; `before` holds a control that sits with them (a checkbox). */
export function FilterActions({ path, before }: { path: string; before?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      {before}
      <Button type="submit">Filter</Button>
      <Link href={path} className="px-2 py-2 text-sm text-slate-600 hover:underline">
        Clear
      </Link>
    </div>
  );
}
