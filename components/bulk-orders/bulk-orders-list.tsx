import { Link } from "@/components/ui/link";
import type { BulkOrderSummary } from "@/lib/bulk-orders/bulk-view";
import { bulkPhase } from "@/lib/bulk-orders/states";
import { BulkStateBadge } from "./bulk-state-badge";
import { formatTotals, utcMinute } from "./bulk-format";
import { DataTable, type Column } from "@/components/ui/data-table";

const COLUMNS: Column<BulkOrderSummary>[] = [
  {
    key: "file",
    header: "File",
    cell: (item) => (
      <Link href={`/orders/bulk/${item.id}`} className="font-medium text-brand-600 hover:underline">
        {item.fileName ?? "Untitled upload"}
      </Link>
    ),
  },
  {
    key: "uploaded",
    header: "Uploaded",
    className: "whitespace-nowrap font-mono text-xs text-slate-600",
    cell: (item) => utcMinute(item.createdAt),
  },
  { key: "state", header: "State", cell: (item) => <BulkStateBadge state={bulkPhase(item.state, item.ordersOpen)} /> },
  {
    key: "valid",
    header: "Rows to order",
    align: "right",
    className: "tabular-nums",
    cell: (item) => (
      <>
        {item.validCount} <span className="text-slate-500">of {item.rowCount}</span>
      </>
    ),
  },
  {
    key: "placed",
    header: "Placed",
    align: "right",
    className: "tabular-nums",
    cell: (item) => (
      <>
        {item.state === "draft" ? "—" : item.progress.placed}
        {item.progress.failed ? <span className="text-red-700"> ({item.progress.failed} failed)</span> : null}
      </>
    ),
  },
  {
    key: "total",
    header: "Total",
    align: "right",
    className: "whitespace-nowrap tabular-nums",
    cell: (item) => formatTotals(item.totals),
  },
];

/** The person's recent bulk orders: where to resume one that is still running. */
export function BulkOrdersList({ items }: { items: BulkOrderSummary[] }) {
  return (
    <DataTable
      rows={items}
      row={(item) => ({ key: item.id, "data-bulk-id": item.id, className: "hover:bg-slate-50" })}
      name={{ label: "Bulk orders", testId: "bulk-orders-table" }}
      columns={COLUMNS}
      empty={{ text: "No bulk orders yet. Upload a file above to start one.", testId: "bulk-orders-empty" }}
    />
  );
}
