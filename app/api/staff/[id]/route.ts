import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { updateStaff } from "@/lib/staff/update-staff";
import { updateStaffSchema } from "@/lib/staff/schemas";

export const PATCH = withStaff<{ id: string }>(
  async ({ req, actor, params }) => Response.json(await updateStaff(actor, params.id, await parseJsonBody(req, updateStaffSchema))),
  { permission: "staff.manage" },
);
