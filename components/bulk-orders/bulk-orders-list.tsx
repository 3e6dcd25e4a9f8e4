import Link from "next/link";
import type { BulkOrderSummary } from "@/lib/bulk-orders/bulk-view";
import { BulkStateBadge } from "./bulk-state-badge";
import { formatTotals, utcMinute } from "./bulk-format";
import { TableScroll } from "@/components/ui/table-scroll";

/** The person's recent bulk orders: where to resume one that is still running. */
export function BulkOrdersList({ items }: { items: BulkOrderSummary[] }) {
  if (items.length === 0) {
    return (
      <div className="rounded-lg bg-white p-8 text-center text-sm text-slate-600 shadow-sm ring-1 ring-slate-200" data-testid="bulk-orders-empty">
        No bulk orders yet. Upload a file above to start one.
      </div>
    );
  }
  return (
    <TableScroll label="Bulk orders" className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="bulk-orders-table">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-3">File</th>
            <th scope="col" className="px-4 py-3">Uploaded</th>
            <th scope="col" className="px-4 py-3">State</th>
            <th scope="col" className="px-4 py-3 text-right">Rows to order</th>
            <th scope="col" className="px-4 py-3 text-right">Placed</th>
            <th scope="col" className="px-4 py-3 text-right">Total</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((item) => (
            <tr key={item.id} data-bulk-id={item.id} className="hover:bg-slate-50">
              <td className="px-4 py-2">
                <Link href={`/orders/bulk/${item.id}`} className="font-medium text-brand-600 hover:underline">
                  {item.fileName ?? "Untitled upload"}
                </Link>
              </td>
              <td className="whitespace-nowrap px-4 py-2 font-mono text-xs text-slate-600">{utcMinute(item.createdAt)}</td>
              <td className="px-4 py-2">
                <BulkStateBadge state={item.state} />
              </td>
              <td className="px-4 py-2 text-right tabular-nums">
                {item.validCount} <span className="text-slate-500">of {item.rowCount}</span>
              </td>
              <td className="px-4 py-2 text-right tabular-nums">
                {item.state === "draft" ? "—" : item.progress.placed}
                {item.progress.failed ? <span className="text-red-700"> ({item.progress.failed} failed)</span> : null}
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-right tabular-nums">{formatTotals(item.totals)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
