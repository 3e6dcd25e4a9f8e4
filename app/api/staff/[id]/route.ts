import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { updateStaff } from "@/lib/staff/update-staff";

export const PATCH = withStaff<{ id: string }>(
  async ({ req, actor, params }) => Response.json(await updateStaff(actor, params.id, await readJsonBody(req))),
  { permission: "staff.manage", stepUp: true },
);
