import { withStaff } from "@/lib/http/with-staff";
import { listStaff } from "@/lib/staff/list-staff";

/** The staff list. People are added by invitation (./invitations), never with a password an admin types. */
export const GET = withStaff(async ({ actor }) => Response.json({ items: await listStaff(actor) }), { permission: "staff.read" });
