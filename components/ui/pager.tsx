import type { ReactNode } from "react";
import { Link } from "@/components/ui/link";
import { hrefWith } from "./search-params";

type PagerLink = { href: string; text: string; testId?: string } | null | undefined;

const LINK = "font-medium text-brand-600 hover:underline";

/** "1 order", "1,234 orders" or, past a counting cap, "10,000+ orders". */
export function countText(total: number, noun: readonly [one: string, many: string], capped = false): string {
  if (capped) return `${total.toLocaleString("en-US")}+ ${noun[1]}`;
  return total === 1 ? `1 ${noun[0]}` : `${total.toLocaleString("en-US")} ${noun[1]}`;
}

/** The usual total line: how many match, and that a page shows only some, newest first. */
export function totalLine({
  total,
  noun,
  capped,
  filtered,
  shown,
}: {
  total: number;
  noun: readonly [string, string];
  capped?: boolean;
  filtered: boolean;
  shown: number;
}): string {
  const verb = total === 1 && !capped ? "matches" : "match";
  return `${countText(total, noun, capped)}${filtered ? ` ${verb} these filters` : ""}${capped || total > shown ? `; showing ${shown} at a time, newest first` : ""}.`;
}

export type PagerLinks = { newer?: PagerLink; older?: PagerLink };

/** The links of a keyset list: back to its newest page (on a later one), on to older rows (when there are). */
export function keysetLinks(
  path: string,
  query: URLSearchParams,
  page: { cursor?: string; nextCursor: string | null },
  older: { text: string; testId?: string },
): PagerLinks {
  return {
    newer: page.cursor ? { href: hrefWith(path, query), text: "Back to newest" } : null,
    older: page.nextCursor ? { href: hrefWith(path, query, { cursor: page.nextCursor }), ...older } : null,
  };
}

/**
 * Links and count line of a page of a keyset list: `shown` rows on this page, `count` of all
 * that match (capped), the filter in `query` (when it has any, the line says they match it).
 */
export function keysetPager(
  path: string,
  query: URLSearchParams,
  page: { cursor?: string; nextCursor: string | null; shown: number },
  count: { total: number; capped?: boolean },
  words: { noun: readonly [string, string]; older: string; olderTestId?: string },
): Pick<PagerProps, "links" | "total"> {
  const total = page.shown ? totalLine({ ...count, noun: words.noun, filtered: query.size > 0, shown: page.shown }) : null;
  return { links: keysetLinks(path, query, page, { text: words.older, testId: words.olderTestId }), total };
}

type PagerProps = {
  /** The navigation's accessible name, and the test id of the count line. */
  name: { label: string; testId?: string };
  links?: PagerLinks;
  /** The count line (`totalLine`). */
  total?: string | null;
  /** Said where the way back would be, on the first page (e.g. when the list was read). */
  note?: ReactNode;
};

/**
 * Below a list: the way back to newer rows, the total count, and the way on to older rows
 * (keyset or numbered pages alike). Nothing when the list is empty and has no pages.
 */
export function Pager({ name, links = {}, total, note }: PagerProps) {
  const { newer, older } = links;
  if (!newer && !older && !total && !note) return null;
  return (
    <nav aria-label={name.label} className="mt-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
      {newer ? (
        <Link href={newer.href} className={LINK} data-testid={newer.testId}>
          {newer.text}
        </Link>
      ) : (
        (note ?? <span />)
      )}
      {total ? (
        <p className="text-slate-600" data-testid={name.testId}>
          {total}
        </p>
      ) : null}
      {older ? (
        <Link href={older.href} className={LINK} data-testid={older.testId}>
          {older.text}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
