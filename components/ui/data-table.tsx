import type { ReactNode } from "react";
import { TableScroll } from "./table-scroll";

/** One column: its header, how a row fills its cell, and the cell's look. */
export type Column<R> = {
  key: string;
  header: ReactNode;
  cell: (row: R) => ReactNode;
  /** Numbers and money line up on the right, header included. */
  align?: "right";
  /** Extra classes of the body cell (e.g. "whitespace-nowrap font-mono text-xs"). */
  className?: string;
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

const HEAD: Record<Variant, string> = {
  card: "bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600",
  compact: "bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600",
  narrow: "bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600",
  plain: "text-left text-xs font-semibold uppercase tracking-wide text-slate-600",
};
const TH: Record<Variant, string> = { card: "px-4 py-3", compact: "px-4 py-2", narrow: "px-3 py-3", plain: "py-2 pr-4 last:pr-0" };
const TD: Record<Variant, string> = { card: "px-4 py-2", compact: "px-4 py-2", narrow: "px-3 py-2", plain: "py-2 pr-4 last:pr-0" };
const FRAME = "rounded-lg bg-white shadow-sm ring-1 ring-slate-200";

type RowAttributes = { className?: string } & Record<`data-${string}`, string | number | undefined>;

/**
 * A list as a table: columns, rows, a screen-reader caption and an empty state, inside a
 * region that scrolls sideways on a phone instead of widening the page.
 */
export function DataTable<R>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  rowAttributes,
  empty,
  testId,
  variant = "card",
  footer,
}: {
  /** The scrolling region's name. */
  label: string;
  caption?: string;
  columns: Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  /** `data-*` attributes (tests and scripts find rows by them) and a row class. */
  rowAttributes?: (row: R) => RowAttributes;
  /** What an empty list says: a card in place of the table, a line (inside a card already), or a row of the table. */
  empty?: { text: ReactNode; testId?: string; as?: "card" | "line" | "row" };
  testId?: string;
  variant?: Variant;
  /** Rows under the body (a total), as `<tr>` elements. */
  footer?: ReactNode;
}) {
  const shown = columns.filter((c) => c.show !== false);
  if (rows.length === 0 && empty?.as === "line") {
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
    <TableScroll label={label} className={variant === "card" || variant === "narrow" ? FRAME : ""}>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid={testId}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className={HEAD[variant]}>
          <tr>
            {shown.map((c) => (
              <th key={c.key} scope="col" className={`${TH[variant]}${c.align === "right" ? " text-right" : ""}`}>
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
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttributes?.(row)}>
              {shown.map((c) => {
                const className = [TD[variant], c.align === "right" ? "text-right" : "", c.rowHeader ? "text-left font-medium" : "", c.className ?? ""].filter(Boolean).join(" ");
                return c.rowHeader ? (
                  <th key={c.key} scope="row" className={className} data-testid={c.testId}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.key} className={className} data-testid={c.testId}>
                    {c.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
        {footer ? <tfoot>{footer}</tfoot> : null}
      </table>
    </TableScroll>
  );
}
