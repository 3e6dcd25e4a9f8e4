import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { csvDownload } from "@/lib/http/csv-download";
import { reportFilterSchema } from "@/lib/reports/report-period";
import { exportSpendReportCsv } from "@/lib/reports/export-spend-report";

/** The spend report's figures as a CSV download, streamed (a buyer's holds only their own orders). */
export const GET = withStaff(
  async ({ req, actor }) => {
    const filter = parseInput(reportFilterSchema, searchParamsObject(new URL(req.url)));
    return csvDownload(await exportSpendReportCsv(actor, filter), "spend-report");
  },
  { permission: "reports.read" },
);
