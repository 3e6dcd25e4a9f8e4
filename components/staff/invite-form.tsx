"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { RefusalNotice } from "@/components/ui/notice";
import type { InvitationView } from "@/lib/staff/access-links/invitation-view";
import type { LinkDelivery } from "@/lib/staff/access-links/deliver-link";
import { RoleCheckboxes } from "./role-checkboxes";
import { ShownInvitationLink } from "./shown-once-link";

type Invited = { invitation: InvitationView; delivery: LinkDelivery };

/** An admin invites a person: name, email, roles. The person sets their own password through the link. */
export function InviteForm() {
  const router = useRouter();
  const [roles, setRoles] = useState<string[]>([]);
  const invite = useApiMutation<Invited, { form: HTMLFormElement; body: Record<string, unknown> }>(
    ({ body }) => ({ method: "POST", url: "/api/staff/invitations", body }),
    {
      onSuccess: (_, { form }) => {
        setRoles([]);
        form.reset();
        router.refresh();
      },
    },
  );
  const { pending, problem, data } = invite;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    invite.send({ form: event.currentTarget, body: { email: form.get("email"), name: form.get("name"), roles } });
  }

  const errors = problem?.errors ?? {};
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Invite a person">
      {problem && !problem.errors ? <RefusalNotice problem={problem} /> : null}
      {data ? <ShownInvitationLink what="Invitation" issued={data} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" name="name" autoComplete="off" error={errors.name} />
        <Field label="Email" name="email" type="email" autoComplete="off" error={errors.email} />
      </div>
      <RoleCheckboxes name="roles" selected={roles} onChange={setRoles} error={errors.roles} idPrefix="invite" />
      <Button type="submit" disabled={pending}>
        {pending ? "Inviting…" : "Invite"}
      </Button>
    </form>
  );
}
