import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { resetPassword } from "@/lib/staff/reset-password";

export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await resetPassword(actor, params.id, await readJsonBody(req));
    return new Response(null, { status: 204 });
  },
  { permission: "staff.manage", stepUp: true },
);
