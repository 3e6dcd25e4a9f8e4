import type { ReactNode } from "react";

/** The look of every chart's "Show as a table" (server-built here, or built on open: chart-table.tsx). */
export const SHOW_AS_TABLE = {
  details: "mt-2 text-sm",
  summary: "cursor-pointer text-brand-600 hover:underline",
};

/** A chart's data as a table the server built, behind "Show as a table" (closed, it costs no layout). */
export function ShowAsTable({ children }: { children: ReactNode }) {
  return (
    <details className={SHOW_AS_TABLE.details}>
      <summary className={SHOW_AS_TABLE.summary}>Show as a table</summary>
      {children}
    </details>
  );
}
