import { Link } from "@/components/ui/link";
import { formatMoney } from "@/lib/money";
import type { ReconciliationView } from "@/lib/reconciliation/reconciliation-view";
import type { Column } from "@/components/ui/data-table";
import { ReconciliationStatus } from "./reconciliation-status";

const money = (minor: string | null, currency: string) => (minor === null ? "—" : formatMoney(minor, currency));
/** A movement out of the wallet, shown with its sign. */
const out = (minor: string, currency: string) => (minor === "0" ? formatMoney(0n, currency) : `−${formatMoney(minor, currency)}`);

/** The statement of a kept day, one row per day and currency: the list page and the day's page share it. */
export function reconciliationColumns(options: { linkDay: boolean }): Column<ReconciliationView>[] {
  return [
    {
      key: "day",
      header: "Day (UTC)",
      rowHeader: true,
      className: "whitespace-nowrap font-mono text-xs",
      show: options.linkDay,
      cell: (r) => (
        <Link
          href={`/wallet/reconciliation/${r.day}`}
          className="text-brand-600 hover:underline"
          data-testid="reconciliation-day-link"
        >
          {r.day}
        </Link>
      ),
    },
    { key: "currency", header: "Currency", rowHeader: !options.linkDay, cell: (r) => r.currency },
    { key: "status", header: "Status", cell: (r) => <ReconciliationStatus status={r.status} /> },
    { key: "opening", header: "Opening", align: "right", cell: (r) => money(r.openingMinor, r.currency) },
    { key: "captured", header: "Orders captured", align: "right", cell: (r) => out(r.capturedMinor, r.currency) },
    { key: "refunded", header: "Refunds", align: "right", cell: (r) => money(r.refundedMinor, r.currency) },
    { key: "credited", header: "Credits", align: "right", cell: (r) => money(r.creditedMinor, r.currency) },
    { key: "withdrawn", header: "Withdrawals paid", align: "right", cell: (r) => out(r.withdrawnMinor, r.currency) },
    { key: "expected", header: "Expected closing", align: "right", cell: (r) => money(r.expectedClosingMinor, r.currency) },
    { key: "closing", header: "Day-end balance", align: "right", cell: (r) => money(r.closingMinor, r.currency) },
    {
      key: "difference",
      header: "Difference",
      align: "right",
      className: "font-medium",
      testId: "reconciliation-difference",
      cell: (r) => money(r.differenceMinor, r.currency),
    },
  ];
}
