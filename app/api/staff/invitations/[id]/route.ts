import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { revokeInvitation } from "@/lib/staff/access-links/revoke-invitation";

/** Revokes a waiting invitation: its link is refused from now on. */
export const DELETE = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    await revokeInvitation(actor, params.id);
    return new Response(null, { status: 204 });
  },
  { permission: "staff.invite", stepUp: true },
);
