import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { issuePasswordResetLink } from "@/lib/staff/access-links/issue-password-reset-link";

/** A one-time link for another person to set a new password; their sessions and current password end now. */
export const POST = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    return Response.json(await issuePasswordResetLink(actor, params.id), { status: 201 });
  },
  { permission: "staff.reset-password", stepUp: true },
);
