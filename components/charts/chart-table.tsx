"use client";

import { useEffect, useRef, useState } from "react";
import { SHOW_AS_TABLE } from "./show-as-table";

/** A chart's data in words, as the server formatted it: one row per bar, its label first. */
export type ChartTableData = { testId?: string; caption: string; columns: string[]; rows: string[][] };

/**
 * "Show as a table" for a chart with many bars: the rows come as plain strings and the table
 * is built in the browser once the person opens it, instead of being sent (as HTML and again
 * as the payload React hydrates from) with every page view that never opens it.
 */
export function ChartTableOnOpen({ testId, caption, columns, rows }: ChartTableData) {
  const details = useRef<HTMLDetailsElement>(null);
  const [opened, setOpened] = useState(false);
  // Opened before the page was interactive: the browser opened it, React saw no event.
  useEffect(() => {
    if (details.current?.open) setOpened(true);
  }, []);
  return (
    <details ref={details} className={SHOW_AS_TABLE.details} onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary className={SHOW_AS_TABLE.summary}>Show as a table</summary>
      {opened ? (
        <table className="mt-2 min-w-[16rem] text-sm" data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              {columns.map((column, i) => (
                <th key={i} scope="col" className={i === 0 ? "py-1 pr-6" : "py-1 pl-4 text-right"}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, ...values]) => (
              <tr key={label} className="border-t border-slate-100">
                <th scope="row" className="py-1 pr-6 text-left font-mono text-xs font-normal">
                  {label}
                </th>
                {values.map((value, i) => (
                  <td key={i} className="py-1 pl-4 text-right tabular-nums">
                    {value}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </details>
  );
}
