"use client";

import { Link } from "@/components/ui/link";
import { DataTable, type Column } from "@/components/ui/data-table";

/**
 * One audit entry as the table shows it, already in words: the page formats times, actions and
 * details on the server, and this client component only lays them out. Why a client component
 * for a table with no state: components/orders/orders-table.tsx.
 */
export type AuditTableRow = {
  id: string;
  action: string;
  /** "2026-11-22 05:12:03" (UTC, the header says so). */
  at: string;
  who: string;
  what: string;
  target: { type: string; id: string | null; href?: string } | null;
  ip: string;
  userAgent?: string;
  correlationId: string | null;
  details: string;
};

const COLUMNS: Column<AuditTableRow>[] = [
  { key: "at", header: "When (UTC)", className: "whitespace-nowrap font-mono text-xs", cell: (row) => row.at },
  { key: "who", header: "Who", cell: (row) => row.who },
  { key: "what", header: "What", className: "whitespace-nowrap font-medium", cell: (row) => row.what },
  {
    key: "target",
    header: "Target",
    // Wide enough for an id in two or three lines rather than a letter column beside long details.
    className: "min-w-40 text-xs text-slate-600",
    testId: "audit-target",
    cell: (row) => <AuditTarget target={row.target} />,
  },
  {
    key: "from",
    header: "From",
    className: "text-xs text-slate-600",
    cell: (row) => <span title={row.userAgent}>{row.ip}</span>,
  },
  {
    key: "details",
    header: "Details",
    className: "max-w-sm text-xs text-slate-600",
    cell: (row) => (
      <>
        {row.correlationId ? <span className="block break-all font-mono">{`ref ${row.correlationId}`}</span> : null}
        {row.details}
      </>
    ),
  },
];

function AuditTarget({ target }: { target: AuditTableRow["target"] }) {
  if (!target) return <>—</>;
  const label = (
    <>
      <span className="block">{target.type}</span>
      {target.id ? <span className="block break-all font-mono">{target.id}</span> : null}
    </>
  );
  return target.href ? (
    <Link href={target.href} className="text-brand-600 hover:underline">
      {label}
    </Link>
  ) : (
    label
  );
}

export function AuditTable({ rows }: { rows: AuditTableRow[] }) {
  return (
    <DataTable
      rows={rows}
      row={(row) => ({ key: row.id, "data-action": row.action })}
      name={{ label: "Audit entries", testId: "audit-table" }}
      columns={COLUMNS}
      empty={{ text: "No audit entries match these filters.", testId: "audit-empty" }}
    />
  );
}
