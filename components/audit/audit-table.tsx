"use client";

import { Fragment } from "react";
import { Link } from "@/components/ui/link";
import { DataTable, type Column } from "@/components/ui/data-table";
import { ShortId } from "@/components/ui/short-id";
import type { AuditDetail } from "@/lib/audit/read-details";
import type { AuditTargetView } from "@/lib/audit/targets";

/**
 * One audit entry as the table shows it, already in words: the page formats times, actions,
 * targets and details on the server, and this client component only lays them out. Why a
 * client component for a table with no state: components/orders/orders-table.tsx.
 */
export type AuditTableRow = {
  id: string;
  action: string;
  /** "2026-11-22 05:12:03" (UTC, the header says so). */
  at: string;
  who: string;
  what: string;
  target: AuditTargetView | null;
  ip: string;
  userAgent?: string;
  correlationId: string | null;
  details: AuditDetail[];
};

// Every column but the time wraps, and none is wider than it needs: the table fits a desktop's
// content column (1,136 px at 1440) instead of scrolling sideways.
const COLUMNS: Column<AuditTableRow>[] = [
  { key: "at", header: "When (UTC)", className: "whitespace-nowrap font-mono text-xs", cell: (row) => row.at },
  {
    key: "who",
    header: "Who",
    className: "min-w-36 max-w-48 [overflow-wrap:anywhere]",
    cell: (row) => <Email address={row.who} />,
  },
  { key: "what", header: "What", className: "min-w-40 max-w-64 font-medium", cell: (row) => row.what },
  {
    key: "target",
    header: "Target",
    className: "min-w-36 max-w-48 text-xs text-slate-600 [overflow-wrap:anywhere]",
    testId: "audit-target",
    cell: (row) => <AuditTarget target={row.target} />,
  },
  {
    key: "from",
    header: "From",
    className: "min-w-24 max-w-32 text-xs text-slate-600 [overflow-wrap:anywhere]",
    cell: (row) => <span title={row.userAgent}>{row.ip}</span>,
  },
  {
    key: "details",
    header: "Details",
    className: "min-w-56 text-xs text-slate-600 [overflow-wrap:anywhere]",
    testId: "audit-details",
    cell: (row) => (
      <>
        {row.correlationId ? (
          <span className="block">
            ref <ShortId id={row.correlationId} />
          </span>
        ) : null}
        {row.details.map((d, i) => (
          <Fragment key={d.label || i}>
            {i > 0 ? " · " : null}
            {d.label ? `${d.label}: ` : null}
            {d.id ? <ShortId id={d.text} /> : d.text}
          </Fragment>
        ))}
      </>
    ),
  },
];

/** An address that may break before its "@" rather than mid-word, when the column is narrow. */
function Email({ address }: { address: string }) {
  const at = address.indexOf("@");
  if (at <= 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}

function AuditTarget({ target }: { target: AuditTableRow["target"] }) {
  if (!target) return <>—</>;
  const label = (
    <>
      {target.name ? <span className="block font-medium">{target.name}</span> : null}
      <span className="block">{target.type}</span>
      {target.id ? <span className="block">{target.short ? <ShortId id={target.id} /> : target.id}</span> : null}
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
