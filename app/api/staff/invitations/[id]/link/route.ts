import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { resendInvitation } from "@/lib/staff/access-links/resend-invitation";

/** A new link for a waiting invitation; the old one is dead. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    return Response.json(await resendInvitation(actor, params.id));
  },
  { permission: "staff.invite", stepUp: true },
);
