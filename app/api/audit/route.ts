import { z } from "zod";
import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { auditCursorSchema, auditFilterSchema, listAudit } from "@/lib/audit/list-audit";

const querySchema = auditFilterSchema.extend({
  cursor: auditCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export const GET = withStaff(
  async ({ req, actor }) => {
    const { cursor, limit, ...filter } = parseInput(querySchema, searchParamsObject(req.url));
    const page = await listAudit(actor, filter, { cursor, limit });
    return Response.json(page);
  },
  { permission: "audit.read" },
);
