import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { getSpendReport } from "@/lib/reports/get-spend-report";
import { reportFilterSchema, type ReportFilter } from "@/lib/reports/report-period";
import { PageHeader } from "@/components/ui/page-header";
import { Notice } from "@/components/ui/notice";
import { pickParams, type SearchParams } from "@/components/ui/search-params";
import { ReportFilters } from "@/components/reports/report-filters";
import { CurrencyReport } from "@/components/reports/currency-report";

export const metadata: Metadata = { title: "Spend report" };

const PARAMS = ["period", "from", "to", "grain", "by"] as const;

/**
 * Where the money went in a period: finance and admins see the workspace's orders, a buyer only
 * their own (decided in lib/reports, so the CSV agrees). One card per currency.
 */
export default async function ReportsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { actor } = await requirePageSession("reports.read");
  const given = pickParams(await searchParams, PARAMS);
  const parsed = reportFilterSchema.safeParse(given);
  const filter: ReportFilter = parsed.success ? parsed.data : reportFilterSchema.parse({});
  const report = await getSpendReport(actor, filter);
  const query = new URLSearchParams(Object.entries(given).filter((e): e is [string, string] => Boolean(e[1])));

  return (
    <>
      <PageHeader
        title="Spend report"
        description={
          report.scope === "workspace"
            ? "Every order of the workspace, by the time this back-office recorded it (UTC), with failed and refunded orders apart from the spend."
            : "Your own orders, by the time this back-office recorded them (UTC), with failed and refunded orders apart from the spend."
        }
        actions={
          <a
            href={`/api/reports/spend/export${parsed.success && query.size ? `?${query}` : ""}`}
            className="rounded-md bg-white px-3.5 py-2 text-sm font-medium shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            data-testid="report-export"
            download
          >
            Download CSV
          </a>
        }
      />
      <ReportFilters filter={filter} period={report.period} />
      {!parsed.success ? (
        <Notice
          className="mb-4"
          tone="warning"
          title="That choice was not valid; this month is shown instead."
          testId="report-filter-problem"
        >
          {parsed.error.issues.map((i) => i.message).join(" ")}
        </Notice>
      ) : null}
      {report.currencies.length === 0 ? (
        <p
          className="rounded-lg bg-white p-8 text-center text-sm text-slate-600 shadow-sm ring-1 ring-slate-200"
          data-testid="report-empty"
        >
          {report.scope === "workspace" ? "No order was recorded" : "You placed no order"} from {report.period.from} to{" "}
          {report.period.to}.
        </p>
      ) : (
        <div className="space-y-6">
          {report.currencies.map((c) => (
            <CurrencyReport key={c.currency} spend={c} report={report} />
          ))}
        </div>
      )}
    </>
  );
}
