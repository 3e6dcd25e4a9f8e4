import { keysetListRoute } from "@/lib/http/keyset-list-route";
import { auditCursorSchema, auditFilterSchema, listAudit } from "@/lib/audit/list-audit";

export const GET = keysetListRoute({
  filter: auditFilterSchema,
  cursor: auditCursorSchema,
  permission: "audit.read",
  list: listAudit,
});
