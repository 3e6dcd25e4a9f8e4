import type { RevealRecord } from "@/lib/reveal/reveal-history";
import { REVEAL_STATE_LABELS } from "@/lib/reveal/reveal-states";
import { DataTable, type Column } from "@/components/ui/data-table";
import { utcTime } from "@/components/ui/utc-time";

const COLUMNS: Column<RevealRecord>[] = [
  {
    key: "at",
    header: "When (UTC)",
    className: "whitespace-nowrap font-mono text-xs",
    cell: (r) => utcTime(r.at, "second", true),
  },
  { key: "who", header: "Who", cell: (r) => r.actorEmail },
  { key: "ticket", header: "Ticket", cell: (r) => r.ticket },
  {
    key: "reason",
    header: "Reason",
    // The whole reason, wrapped: a reader checking a reveal needs all of it (and a phone has no tooltip).
    className: "min-w-48",
    cell: (r) => r.reason,
  },
  {
    key: "outcome",
    header: "Outcome",
    testId: "reveal-outcome",
    cell: (r) => (
      <span title={r.errorCode ?? undefined}>
        {REVEAL_STATE_LABELS[r.state]}
        {r.errorCode ? ` (${r.errorCode})` : ""}
      </span>
    ),
  },
  { key: "count", header: "Count", cell: (r) => r.revealCount ?? "—" },
];

/**
 * Who saw this order's codes, when and why. Never the codes themselves. A table in the kit's
 * shape: a card per reveal on a phone, where its six columns made the page 694–699 px wide.
 */
export function RevealHistory({ records }: { records: RevealRecord[] }) {
  return (
    <DataTable
      rows={records}
      row={(r) => ({ key: records.indexOf(r) })}
      name={{ label: "Reveal history", testId: "reveal-history" }}
      variant="plain"
      columns={COLUMNS}
      empty={{ text: "Nobody has revealed this order's codes.", testId: "reveal-history-empty" }}
    />
  );
}
