import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { resetSecondFactor } from "@/lib/staff/reset-second-factor";

/** An admin clears another person's second factors and ends their sessions (never their own). */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    return Response.json(await resetSecondFactor(actor, params.id));
  },
  { permission: "staff.manage", stepUp: true },
);
