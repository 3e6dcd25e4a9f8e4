import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { csvDownload } from "@/lib/http/csv-download";
import { parseInput } from "@/lib/validation";
import { reconciliationFilterSchema } from "@/lib/reconciliation/list-reconciliations";
import { exportReconciliationsCsv } from "@/lib/reconciliation/export-reconciliations";

export const GET = withStaff(
  async ({ req, actor }) =>
    csvDownload(
      await exportReconciliationsCsv(actor, parseInput(reconciliationFilterSchema, searchParamsObject(req.url))),
      "wallet-reconciliation",
    ),
  { permission: "wallet.read" },
);
