import { formatMoney } from "@/lib/money";
import type { CurrencySpend, SpendReport } from "@/lib/reports/get-spend-report";
import { GROUP_NAMES } from "@/lib/reports/group-labels";
import { BarChart } from "@/components/charts/bar-chart";
import { Card } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { WalletTieLine } from "./wallet-tie-line";

/** The stacked bands, largest group first; the last colour is "Other". */
const BANDS = ["fill-brand-600", "fill-emerald-500", "fill-amber-500", "fill-sky-400", "fill-violet-400", "fill-slate-400"];
/** The table shows the largest groups; the CSV has every one. */
const TOP = 10;

type Row = CurrencySpend["groups"][number];

/** One currency's part of the report: its figures, how it ties to the wallet, its chart over time and its largest groups. */
export function CurrencyReport({ spend, report }: { spend: CurrencySpend; report: SpendReport }) {
  const { currency, total } = spend;
  const money = (minor: bigint | number) => formatMoney(minor, currency);
  const groupName = GROUP_NAMES[report.filter.by];
  const { from, to } = report.period;
  const figures = [
    ["Net spend", total.netMinor, "Fulfilled and in progress: what left the wallet"],
    ["Fulfilled", total.fulfilledMinor, null],
    ["In progress", total.inProgressMinor, "Reserved or processing"],
    ["Failed", total.failedMinor, "Reserved, then released"],
    ["Refunded", total.refundedMinor, "Fulfilled, then paid back"],
  ] as const;
  const columns = [
    { key: "group", header: groupName, cell: (r: Row) => r.label, rowHeader: true },
    { key: "orders", header: "Orders", cell: (r: Row) => r.orders.toLocaleString("en-US"), align: "right" as const },
    { key: "net", header: "Net spend", cell: (r: Row) => money(r.netMinor), align: "right" as const, className: "font-medium" },
    { key: "fulfilled", header: "Fulfilled", cell: (r: Row) => money(r.fulfilledMinor), align: "right" as const },
    { key: "progress", header: "In progress", cell: (r: Row) => money(r.inProgressMinor), align: "right" as const },
    { key: "failed", header: "Failed", cell: (r: Row) => money(r.failedMinor), align: "right" as const },
    { key: "refunded", header: "Refunded", cell: (r: Row) => money(r.refundedMinor), align: "right" as const },
  ].map((c) => ({ ...c, className: `tabular-nums ${"className" in c ? c.className : ""}`.trim() }));

  return (
    <Card>
      <section aria-labelledby={`report-${currency}`} data-testid={`report-${currency}`}>
        <h2 id={`report-${currency}`} className="text-base font-semibold text-slate-900">
          {currency} · {total.orders.toLocaleString("en-US")} {total.orders === 1 ? "order" : "orders"}
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3 lg:grid-cols-5">
          {figures.map(([label, minor, note]) => (
            <div key={label}>
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
              <dd
                className="mt-0.5 text-xl font-semibold tabular-nums text-slate-900"
                data-testid={`report-${currency}-${label.toLowerCase().replace(" ", "-")}`}
              >
                {money(minor)}
              </dd>
              {note ? <dd className="text-xs text-slate-500">{note}</dd> : null}
            </div>
          ))}
        </dl>
        {spend.tie ? <WalletTieLine tie={spend.tie} netMinor={total.netMinor} from={from} to={to} /> : null}
        {spend.chart.series.length ? (
          <div className="mt-4">
            <BarChart
              id={`report-chart-${currency}`}
              testId={`report-chart-${currency}`}
              title={`${currency} net spend per ${report.filter.grain} by ${groupName.toLowerCase()}, ${from} to ${to}`}
              summary={`${currency} net spend per ${report.filter.grain} from ${from} to ${to}, stacked by ${groupName.toLowerCase()}: ${money(total.netMinor)} in all.`}
              bars={spend.chart.bars.map((b) => ({ label: b.label, values: b.values.map(Number) }))}
              series={spend.chart.series.map((name, i) => ({
                name,
                className: BANDS[i === spend.chart.series.length - 1 && name === "Other" ? BANDS.length - 1 : i]!,
              }))}
              format={(v) => money(Math.round(v))}
              labelHeader={
                report.filter.grain === "month" ? "Month (UTC)" : report.filter.grain === "week" ? "Week from (UTC)" : "Day (UTC)"
              }
              tableCaption={`${currency} net spend per ${report.filter.grain} by ${groupName.toLowerCase()}`}
            />
          </div>
        ) : null}
        <h3 className="mt-5 mb-2 text-sm font-semibold text-slate-900">
          {spend.groups.length > TOP ? `The ${TOP} largest of ${spend.groups.length}` : `Every ${groupName.toLowerCase()}`}, by
          net spend
        </h3>
        <DataTable
          rows={spend.groups.slice(0, TOP)}
          row={(r) => ({ key: r.key || "unknown", "data-group": r.key })}
          name={{ label: `${currency} spend by ${groupName.toLowerCase()}`, testId: `report-${currency}-groups` }}
          columns={columns}
          variant="compact"
          empty={{ text: `No ${currency} order was recorded in the period.` }}
        />
        {spend.groups.length > TOP ? (
          <p className="mt-2 text-xs text-slate-500">
            The CSV has all {spend.groups.length}, per {report.filter.grain}.
          </p>
        ) : null}
      </section>
    </Card>
  );
}
