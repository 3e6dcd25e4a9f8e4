import { withStaff } from "@/lib/http/with-staff";
import { parseJsonBody } from "@/lib/http/parse";
import { resetPassword } from "@/lib/staff/reset-password";
import { resetPasswordSchema } from "@/lib/staff/schemas";

export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await resetPassword(actor, params.id, await parseJsonBody(req, resetPasswordSchema));
    return new Response(null, { status: 204 });
  },
  { permission: "staff.manage" },
);
