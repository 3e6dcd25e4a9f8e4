import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { createStaff } from "@/lib/staff/create-staff";
import { listStaff } from "@/lib/staff/list-staff";
import { createStaffSchema } from "@/lib/staff/schemas";

export const GET = withStaff(async ({ actor }) => Response.json({ items: await listStaff(actor) }), { permission: "staff.read" });

export const POST = withStaff(
  async ({ req, actor }) => {
    const input = await parseJsonBody(req, createStaffSchema);
    return Response.json(await createStaff(actor, input), { status: 201 });
  },
  { permission: "staff.manage" },
);
