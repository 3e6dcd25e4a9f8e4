import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { auditFilterSchema } from "@/lib/audit/list-audit";
import { exportAuditCsv } from "@/lib/audit/export-audit";

export const GET = withStaff(
  async ({ req, actor }) => {
    const filter = parseInput(auditFilterSchema, searchParamsObject(req.url));
    const stamp = new Date().toISOString().slice(0, 10);
    return new Response(await exportAuditCsv(actor, filter), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-${stamp}.csv"`,
        "cache-control": "no-store",
      },
    });
  },
  { permission: "audit.read" },
);
