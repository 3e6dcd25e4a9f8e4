import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { inviteStaff } from "@/lib/staff/access-links/invite-staff";
import { listInvitations } from "@/lib/staff/access-links/list-invitations";

export const GET = withStaff(async ({ actor }) => Response.json({ items: await listInvitations(actor) }), {
  permission: "staff.read",
});

/** Invites a person; the answer carries the one-time link only while no mail is configured (shown once). */
export const POST = withStaff(
  async ({ req, actor }) => Response.json(await inviteStaff(actor, await readJsonBody(req)), { status: 201 }),
  { permission: "staff.invite", stepUp: true },
);
