import { Fragment, type ReactNode } from "react";
import { TableScroll } from "./table-scroll";

/** One column: its header, how a row fills its cell, and the cell's look. */
export type Column<R> = {
  key: string;
  header: ReactNode;
  /**
   * The field's name on a phone, where each row is a card (app/globals.css, `.cards-on-phone`);
   * by default the header when it is plain text. A column with neither (actions) spans the card.
   */
  label?: string;
  cell: (row: R) => ReactNode;
  /** Numbers and money line up on the right, header included. */
  align?: "right";
  /** Extra classes of the body cell (e.g. "whitespace-nowrap font-mono text-xs"). */
  className?: string;
  /** Extra classes of the header cell (a width). On a phone every column shows, in its card. */
  headerClassName?: string;
  /** The cell that names the row (`<th scope="row">`), for screen readers. */
  rowHeader?: boolean;
  /** Left out when false (a column only some lists need). */
  show?: boolean;
  /** `data-testid` of each body cell. */
  testId?: string;
};

/**
 * "card": a list of its own (white card); "compact": inside a card, tighter header;
 * "narrow": many columns, less padding; "plain": a short table inside a card, no header band.
 */
type Variant = "card" | "compact" | "narrow" | "plain";

const HEAD = "text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
/** Cell padding by variant; all but "plain" put the header on a grey band. */
const PADDING: Record<Variant, { th: string; td: string }> = {
  card: { th: "px-4 py-3", td: "px-4 py-2" },
  compact: { th: "px-4 py-2", td: "px-4 py-2" },
  narrow: { th: "px-3 py-3", td: "px-3 py-2" },
  plain: { th: "py-2 pr-4 last:pr-0", td: "py-2 pr-4 last:pr-0" },
};
const FRAME = "rounded-lg bg-white shadow-sm ring-1 ring-slate-200";

/** What each `<tr>` gets: its React key, a class, and `data-*` attributes (tests and scripts find rows by them). */
type RowProps = { key: string | number; className?: string } & Record<`data-${string}`, string | number | undefined>;

/**
 * A list as a table: columns, rows, a screen-reader caption and an empty state. Below 768 px
 * each row is a card of labelled fields (CSS only, so the server's HTML is right at first paint),
 * the row header on top; a wider table scrolls sideways in its region instead of widening the page.
 */
export function DataTable<R>({
  name,
  columns,
  rows,
  row: rowProps,
  empty,
  variant = "card",
  footer,
  detail,
}: {
  /** The scrolling region's name, the screen-reader caption, and the table's test id. */
  name: { label: string; caption?: string; testId?: string };
  columns: Column<R>[];
  rows: readonly R[];
  row: (row: R) => RowProps;
  /**
   * What an empty list says: in place of the table, a card (or a line of text for a table
   * that sits in a card already, "compact" and "plain"), or `as: "row"` a row of the table.
   */
  empty?: { text: ReactNode; testId?: string; as?: "row" };
  variant?: Variant;
  /** Rows under the body (a total), as `<tr>` elements. */
  footer?: ReactNode;
  /** A full-width row under a row (an open editor), or null for none. */
  detail?: (row: R) => ReactNode | null;
}) {
  const shown = columns.filter((c) => c.show !== false);
  const inCard = variant === "compact" || variant === "plain";
  if (rows.length === 0 && empty && inCard) {
    return (
      <p className="text-sm text-slate-600" data-testid={empty.testId}>
        {empty.text}
      </p>
    );
  }
  if (rows.length === 0 && empty && empty.as !== "row") {
    return (
      <div className={`p-8 text-center text-sm text-slate-600 ${FRAME}`} data-testid={empty.testId}>
        {empty.text}
      </div>
    );
  }
  return (
    <TableScroll label={name.label} className={inCard ? "" : FRAME}>
      <table
        className={`cards-on-phone min-w-full divide-y divide-slate-200 text-sm${variant === "plain" ? " [--card-inset:0px]" : ""}`}
        data-testid={name.testId}
      >
        {name.caption ? <caption className="sr-only">{name.caption}</caption> : null}
        <thead className={variant === "plain" ? HEAD : `bg-slate-50 ${HEAD}`}>
          <tr>
            {shown.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={`${PADDING[variant].th}${c.align === "right" ? " text-right" : ""}${c.headerClassName ? ` ${c.headerClassName}` : ""}`}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={shown.length} className="px-3 py-6 text-center text-slate-600" data-testid={empty.testId}>
                {empty.text}
              </td>
            </tr>
          ) : null}
          {rows.map((row) => {
            const { key, ...attributes } = rowProps(row);
            const below = detail?.(row) ?? null;
            return (
              <Fragment key={key}>
                <tr {...attributes}>
                  {shown.map((c) => (
                    <Cell key={c.key} column={c} row={row} variant={variant} />
                  ))}
                </tr>
                {below !== null ? (
                  <tr>
                    <td colSpan={shown.length} className="bg-slate-50 px-4 py-4">
                      {below}
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
        {footer ? <tfoot>{footer}</tfoot> : null}
      </table>
    </TableScroll>
  );
}

function Cell<R>({ column: c, row, variant }: { column: Column<R>; row: R; variant: Variant }) {
  const label = c.label ?? (typeof c.header === "string" ? c.header : undefined);
  const className = [
    PADDING[variant].td,
    c.align === "right" ? "text-right" : "",
    c.rowHeader ? "text-left font-medium" : "",
    c.className ?? "",
  ]
    .filter(Boolean)
    .join(" ");
  return c.rowHeader ? (
    <th scope="row" className={className} data-testid={c.testId} data-label={label}>
      {c.cell(row)}
    </th>
  ) : (
    <td className={className} data-testid={c.testId} data-label={label}>
      {c.cell(row)}
    </td>
  );
}
