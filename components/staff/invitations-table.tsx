"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { ROLE_LABELS, isRole } from "@/lib/auth/permissions";
import type { InvitationView } from "@/lib/staff/access-links/invitation-view";
import type { LinkDelivery } from "@/lib/staff/access-links/deliver-link";
import { Button } from "@/components/ui/button";
import { Notice, RefusalNotice } from "@/components/ui/notice";
import { DataTable, type Column } from "@/components/ui/data-table";
import { utcTime } from "@/components/ui/utc-time";
import { ShownInvitationLink } from "./shown-once-link";

type Action = { kind: "resend" | "revoke"; invitation: InvitationView };

/** Invitations nobody has accepted yet: who, which roles, until when, invited by whom; send again or revoke. */
export function InvitationsTable({ invitations }: { invitations: InvitationView[] }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useApiMutation<{ invitation: InvitationView; delivery: LinkDelivery } | undefined, Action>(
    ({ kind, invitation }) =>
      kind === "resend"
        ? { method: "POST", url: `/api/staff/invitations/${invitation.id}/link`, body: {} }
        : { method: "DELETE", url: `/api/staff/invitations/${invitation.id}` },
    { onSuccess: () => router.refresh() },
  );
  const { pending, problem, data, variables, saved } = action;

  const columns: Column<InvitationView>[] = [
    {
      key: "who",
      header: "Invited",
      rowHeader: true,
      cell: (i) => (
        <>
          <p className="font-medium text-slate-900">{i.name}</p>
          <p className="text-xs break-all text-slate-500">{i.email}</p>
        </>
      ),
    },
    { key: "roles", header: "Roles", cell: (i) => i.roles.map((r) => (isRole(r) ? ROLE_LABELS[r] : r)).join(", ") },
    {
      key: "expires",
      header: "Link expires",
      cell: (i) =>
        i.expired ? (
          <span className="font-medium text-amber-800" data-testid="invitation-expired">
            Expired {utcTime(i.expiresAt)}
          </span>
        ) : (
          utcTime(i.expiresAt)
        ),
    },
    { key: "by", header: "Invited by", cell: (i) => i.invitedBy ?? "—" },
    {
      key: "actions",
      header: <span className="sr-only">Actions</span>,
      align: "right",
      cell: (i) => (
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={pending} onClick={() => action.send({ kind: "resend", invitation: i })}>
            New link
          </Button>
          <Button variant="secondary" disabled={pending} onClick={() => setConfirming(i.id)} aria-expanded={confirming === i.id}>
            Revoke
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-3">
      {problem ? <RefusalNotice problem={problem} /> : null}
      {saved && variables?.kind === "resend" && data ? <ShownInvitationLink what="New invitation link" issued={data} /> : null}
      {saved && variables?.kind === "revoke" ? (
        <Notice tone="success">Invitation for {variables.invitation.email} revoked: its link no longer works.</Notice>
      ) : null}
      <DataTable
        name={{ label: "Waiting invitations" }}
        columns={columns}
        rows={invitations}
        empty={{ text: "No invitation is waiting.", testId: "no-invitations" }}
        row={(i) => ({ key: i.id, "data-testid": `invitation-row-${i.email}` })}
        detail={(i) =>
          confirming === i.id ? (
            <div
              role="alertdialog"
              aria-label={`Revoke the invitation for ${i.email}?`}
              className="rounded-md bg-amber-50 p-4 ring-1 ring-amber-200"
            >
              <p className="text-sm text-amber-900">Its link stops working at once. You can invite them again later.</p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button
                  variant="danger"
                  disabled={pending}
                  onClick={() => {
                    setConfirming(null);
                    action.send({ kind: "revoke", invitation: i });
                  }}
                >
                  Revoke invitation
                </Button>
                <Button variant="secondary" onClick={() => setConfirming(null)} autoFocus>
                  Cancel
                </Button>
              </div>
            </div>
          ) : null
        }
      />
    </div>
  );
}
