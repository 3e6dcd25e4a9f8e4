import type { ReactNode } from "react";
import Link from "next/link";

type PagerLink = { href: string; text: string; testId?: string } | null | undefined;

const LINK = "font-medium text-brand-600 hover:underline";

/** "1 order", "1,234 orders" or, past a counting cap, "10,000+ orders". */
export function countText(total: number, noun: readonly [one: string, many: string], capped = false): string {
  if (capped) return `${total.toLocaleString("en-US")}+ ${noun[1]}`;
  return total === 1 ? `1 ${noun[0]}` : `${total.toLocaleString("en-US")} ${noun[1]}`;
}

/** The usual total line: how many match, and that a page shows only some, newest first. */
export function totalLine({ total, noun, capped, filtered, shown }: { total: number; noun: readonly [string, string]; capped?: boolean; filtered: boolean; shown: number }): string {
  return `${countText(total, noun, capped)}${filtered ? " match these filters" : ""}${capped || total > shown ? `; showing ${shown} at a time, newest first` : ""}.`;
}

type PagerProps = {
  label: string;
  newer?: PagerLink;
  older?: PagerLink;
  /** The count line (`totalLine`), with `testId`. */
  total?: string | null;
  testId?: string;
  /** Said where the way back would be, on the first page (e.g. when the list was read). */
  note?: ReactNode;
};

/**
 * Below a list: the way back to newer rows, the total count, and the way on to older rows
 * (keyset or numbered pages alike). Nothing when the list is empty and has no pages.
 */
export function Pager({ label, newer, older, total, testId, note }: PagerProps) {
  if (!newer && !older && !total && !note) return null;
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
      {newer ? <Link href={newer.href} className={LINK} data-testid={newer.testId}>{newer.text}</Link> : (note ?? <span />)}
      {total ? <p className="text-slate-600" data-testid={testId}>{total}</p> : null}
      {older ? <Link href={older.href} className={LINK} data-testid={older.testId}>{older.text}</Link> : <span />}
    </nav>
  );
}
