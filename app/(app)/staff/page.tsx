import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { listStaff } from "@/lib/staff/list-staff";
import { listInvitations } from "@/lib/staff/access-links/list-invitations";
import { passwordAllowed, readSsoOnly } from "@/lib/auth/sso/sso-only";
import { PageHeader, Card } from "@/components/ui/page-header";
import { InviteForm } from "@/components/staff/invite-form";
import { InvitationsTable } from "@/components/staff/invitations-table";
import { StaffTable } from "@/components/staff/staff-table";

export const metadata: Metadata = { title: "Staff" };

export default async function StaffPage() {
  const { actor } = await requirePageSession("staff.read");
  const [staff, invitations, sso] = await Promise.all([listStaff(actor), listInvitations(actor), readSsoOnly()]);
  const idpName = sso.name ?? "single sign-on";
  const withoutPassword = staff.filter((person) => !passwordAllowed(sso, person.email)).map((person) => person.id);
  const passwordsOff = sso.ssoOnly && sso.configured ? { idpName, staffIds: withoutPassword } : null;
  return (
    <>
      <PageHeader
        title="Staff"
        description="Who can sign in, and what each person may do. Deactivating someone ends their sessions at once."
      />
      <div className="space-y-6">
        <StaffTable staff={staff} currentStaffId={actor.staffId} passwordsOff={passwordsOff} />
        {can(actor.roles, "staff.invite") ? (
          <Card>
            <h2 className="mb-1 text-base font-semibold">Invite a person</h2>
            <p className="mb-4 text-sm text-slate-600">
              {passwordsOff
                ? `They get a one-time link that sends them to sign in with ${idpName}, which makes their account with these roles.`
                : "They get a one-time link to choose their own password, then set up a second factor if their role must have one."}
            </p>
            <InviteForm />
          </Card>
        ) : null}
        {/* Not a <section>: the table's scrolling region is the landmark of this name already. */}
        <div className="space-y-3">
          <h2 className="text-base font-semibold">Waiting invitations</h2>
          <InvitationsTable invitations={invitations} />
        </div>
      </div>
    </>
  );
}
