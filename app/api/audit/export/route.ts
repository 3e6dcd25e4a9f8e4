import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { csvDownload } from "@/lib/http/csv-download";
import { auditFilterSchema } from "@/lib/audit/list-audit";
import { exportAuditCsv } from "@/lib/audit/export-audit";

export const GET = withStaff(
  async ({ req, actor }) =>
    csvDownload(await exportAuditCsv(actor, parseInput(auditFilterSchema, searchParamsObject(req.url))), "audit"),
  { permission: "audit.read" },
);
