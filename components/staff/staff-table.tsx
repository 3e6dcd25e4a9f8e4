"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation, type ApiRequest } from "@/components/use-api-mutation";
import { ROLE_LABELS, isRole } from "@/lib/auth/permissions";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { deactivationConsequences, type StaffView } from "@/lib/staff/staff-view";
import { RoleCheckboxes } from "./role-checkboxes";
import { DataTable, type Column } from "@/components/ui/data-table";
import type { LinkDelivery } from "@/lib/staff/access-links/deliver-link";
import { ShownOnceLink } from "./shown-once-link";

export function StaffTable({
  staff,
  currentStaffId,
  passwordsOff = null,
}: {
  staff: StaffView[];
  currentStaffId: string;
  /** While SSO-only mode holds: the IdP's name and who has no password to reset (all but the break-glass account). */
  passwordsOff?: PasswordsOff | null;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const columns: Column<StaffView>[] = [
    {
      key: "name",
      header: "Name",
      cell: (person) => (
        <>
          <p className="font-medium text-slate-900">
            {person.name}
            {person.id === currentStaffId ? <span className="ml-1 text-xs font-normal text-slate-500">(you)</span> : null}
          </p>
          <p className="text-xs text-slate-500">{person.email}</p>
        </>
      ),
    },
    { key: "roles", header: "Roles", cell: (person) => person.roles.map((r) => (isRole(r) ? ROLE_LABELS[r] : r)).join(", ") },
    {
      key: "second-factor",
      header: "Second factor",
      headerClassName: "hidden sm:table-cell",
      className: "hidden sm:table-cell",
      cell: (person) => <SecondFactorCell person={person} />,
    },
    {
      key: "status",
      header: "Status",
      cell: (person) => (
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${person.active ? "bg-emerald-50 text-emerald-700" : "bg-slate-200 text-slate-700"}`}
        >
          {person.active ? "Active" : "Deactivated"}
        </span>
      ),
    },
    {
      key: "actions",
      header: <span className="sr-only">Actions</span>,
      align: "right",
      cell: (person) => (
        <Button
          variant="secondary"
          onClick={() => setEditing(editing === person.id ? null : person.id)}
          aria-expanded={editing === person.id}
        >
          {editing === person.id ? "Close" : "Manage"}
        </Button>
      ),
    },
  ];
  return (
    <DataTable
      name={{ label: "Staff" }}
      columns={columns}
      rows={staff}
      row={(person) => ({
        key: person.id,
        "data-testid": `staff-row-${person.email}`,
        className: person.active ? "" : "bg-slate-50 text-slate-500",
      })}
      detail={(person) =>
        editing === person.id ? (
          <ManagePerson person={person} isSelf={person.id === currentStaffId} passwordsOff={passwordsOff} />
        ) : null
      }
    />
  );
}

/**
 * "Authenticator app and passkey": which kinds of second factor a person has; with none,
 * "Required – not set up" (amber) where the policy covers their roles, else "None".
 */
function SecondFactorCell({ person }: { person: StaffView }) {
  const { totp, passkey } = person.secondFactors;
  const kinds = [
    totp ? "Authenticator app" : null,
    passkey ? `${passkey === 1 ? "Passkey" : `${passkey} passkeys`}` : null,
  ].filter(Boolean);
  if (kinds.length) return <span data-testid="staff-second-factor">{kinds.join(" and ")}</span>;
  if (!person.secondFactorRequired) return <span data-testid="staff-second-factor">None</span>;
  return (
    <span
      data-testid="staff-second-factor"
      className="whitespace-nowrap rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-200"
    >
      Required – not set up
    </span>
  );
}

export type PasswordsOff = { idpName: string; staffIds: string[] };

/** What an admin can do to one person: roles, deactivation (asked twice), a password reset link (unless passwords are off). */
function ManagePerson({
  person,
  isSelf,
  passwordsOff,
}: {
  person: StaffView;
  isSelf: boolean;
  passwordsOff: PasswordsOff | null;
}) {
  const router = useRouter();
  const [roles, setRoles] = useState(person.roles);
  const action = useApiMutation((request: ApiRequest & { success: string }) => request, {
    onSuccess: () => router.refresh(),
  });
  const { pending, problem } = action;
  const done = action.saved ? (action.variables?.success ?? null) : null;
  // Deactivating someone and dropping one's own admin role are asked twice.
  const [confirming, setConfirming] = useState<"deactivate" | "own-admin" | "reset-second-factor" | null>(null);
  const hasSecondFactor = person.secondFactors.totp + person.secondFactors.passkey > 0;
  const dropsOwnAdmin = isSelf && person.roles.includes("admin") && !roles.includes("admin");

  function run(method: "PATCH" | "POST", url: string, body: unknown, success: string) {
    setConfirming(null);
    action.send({ method, url, body, success });
  }

  return (
    <div className="space-y-4">
      {problem ? (
        <Notice tone="error" title={problem.title} correlationId={problem.correlationId}>
          {problem.errors ? Object.values(problem.errors).flat().join(" ") : problem.detail}
        </Notice>
      ) : null}
      {done ? <Notice tone="success">{done}</Notice> : null}
      <RoleCheckboxes name={`roles-${person.id}`} selected={roles} onChange={setRoles} idPrefix={person.id} />
      <div className="flex flex-wrap gap-2">
        <Button
          disabled={pending}
          onClick={() =>
            dropsOwnAdmin ? setConfirming("own-admin") : run("PATCH", `/api/staff/${person.id}`, { roles }, "Roles saved.")
          }
        >
          Save roles
        </Button>
        {person.active ? (
          <Button variant="danger" disabled={pending} onClick={() => setConfirming("deactivate")}>
            Deactivate
          </Button>
        ) : (
          <Button
            variant="secondary"
            disabled={pending}
            onClick={() => run("PATCH", `/api/staff/${person.id}`, { active: true }, "Reactivated.")}
          >
            Reactivate
          </Button>
        )}
        {hasSecondFactor && !isSelf ? (
          <Button variant="secondary" disabled={pending} onClick={() => setConfirming("reset-second-factor")}>
            Reset second factor
          </Button>
        ) : null}
      </div>
      {confirming === "deactivate" ? (
        <Confirm
          label={`Deactivate ${person.name}?`}
          text={deactivationConsequences(person)}
          action={`Deactivate ${person.name}`}
          onConfirm={() => run("PATCH", `/api/staff/${person.id}`, { active: false }, "Deactivated. Their sessions have ended.")}
          onCancel={() => setConfirming(null)}
          pending={pending}
        />
      ) : null}
      {confirming === "reset-second-factor" ? (
        <Confirm
          label={`Reset ${person.name}'s second factor?`}
          text="Their authenticator apps, passkeys and recovery codes are removed and their sessions end at once. If their role must have a second factor, they set up a new one at their next sign-in."
          action="Reset second factor"
          onConfirm={() =>
            run("POST", `/api/staff/${person.id}/second-factor-reset`, {}, "Second factor reset. Their sessions have ended.")
          }
          onCancel={() => setConfirming(null)}
          pending={pending}
        />
      ) : null}
      {confirming === "own-admin" ? (
        <Confirm
          label="Remove your own admin role?"
          text="You will lose access to Staff, Settings and the audit log at once; only another admin can give it back."
          action="Remove my admin role"
          onConfirm={() => run("PATCH", `/api/staff/${person.id}`, { roles }, "Roles saved.")}
          onCancel={() => setConfirming(null)}
          pending={pending}
        />
      ) : null}
      {isSelf ? null : passwordsOff?.staffIds.includes(person.id) ? (
        <p className="border-t border-slate-200 pt-4 text-sm text-slate-600" data-testid="no-password-reset">
          Passwords are turned off: {person.name} signs in with {passwordsOff.idpName}, so there is no password to reset.
        </p>
      ) : (
        <PasswordResetLink person={person} />
      )}
    </div>
  );
}

/**
 * A one-time link for the person to set a new password (asked first: their sessions and their
 * current password end at once). Not for oneself: another admin resets an admin's password.
 */
function PasswordResetLink({ person }: { person: StaffView }) {
  const [confirming, setConfirming] = useState(false);
  const reset = useApiMutation<{ expiresAt: string; delivery: LinkDelivery }>(() => ({
    method: "POST",
    url: `/api/staff/${person.id}/password-reset-link`,
    body: {},
  }));
  if (!person.active) return null;
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      {reset.problem ? (
        <Notice tone="error" title={reset.problem.title} correlationId={reset.problem.correlationId}>
          {reset.problem.detail}
        </Notice>
      ) : null}
      {reset.data ? (
        <ShownOnceLink
          delivery={reset.data.delivery}
          what="Password reset link"
          email={person.email}
          expiresAt={reset.data.expiresAt}
        />
      ) : null}
      <Button variant="secondary" disabled={reset.pending} onClick={() => setConfirming(true)}>
        Send a password reset link
      </Button>
      {confirming ? (
        <Confirm
          label={`Reset ${person.name}'s password?`}
          text="Their sessions end and their current password stops working at once. They set a new one through a one-time link; their second factor is still asked at sign-in."
          action="Reset password"
          onConfirm={() => {
            setConfirming(false);
            reset.send();
          }}
          onCancel={() => setConfirming(false)}
          pending={reset.pending}
        />
      ) : null}
    </div>
  );
}

function Confirm({
  label,
  text,
  action,
  onConfirm,
  onCancel,
  pending,
}: {
  label: string;
  text: string;
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending: boolean;
}) {
  return (
    <div
      role="alertdialog"
      aria-label={label}
      className="rounded-md bg-amber-50 p-4 ring-1 ring-amber-200"
      data-testid="staff-confirm"
    >
      <p className="text-sm font-medium text-amber-900">{label}</p>
      <p className="mt-1 text-sm text-amber-900">{text}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="danger" disabled={pending} onClick={onConfirm}>
          {action}
        </Button>
        <Button variant="secondary" onClick={onCancel} autoFocus>
          Cancel
        </Button>
      </div>
    </div>
  );
}
