import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { createStaff } from "@/lib/staff/create-staff";
import { listStaff } from "@/lib/staff/list-staff";

export const GET = withStaff(async ({ actor }) => Response.json({ items: await listStaff(actor) }), { permission: "staff.read" });

export const POST = withStaff(
  async ({ req, actor }) => {
    const input = await readJsonBody(req);
    return Response.json(await createStaff(actor, input), { status: 201 });
  },
  { permission: "staff.manage", stepUp: true },
);
