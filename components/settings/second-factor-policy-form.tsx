"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Notice, ProblemNotice } from "@/components/ui/notice";
import { RoleCheckboxes } from "@/components/staff/role-checkboxes";

/** Which roles must have a second factor; applies at each person's next sign-in. */
export function SecondFactorPolicyForm({
  roles: initial,
  isDefault,
  canEdit,
}: {
  roles: string[];
  isDefault: boolean;
  canEdit: boolean;
}) {
  const router = useRouter();
  const [roles, setRoles] = useState(initial);
  const save = useApiMutation(
    (body: { roles: string[] }) => ({ method: "PUT", url: "/api/settings/second-factor-policy", body }),
    {
      onSuccess: () => router.refresh(),
    },
  );
  return (
    <form
      noValidate
      aria-label="Second-factor policy"
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.send({ roles });
      }}
    >
      <p className="text-sm text-slate-600">
        People with these roles must set up an authenticator app or a passkey, and are asked for it at every sign-in. One who has
        none is led to set one up at their next sign-in and can do nothing else until then.
        {isDefault && initial.length === 0 ? " Off by default in local mode." : null}
      </p>
      {save.problem ? <ProblemNotice problem={save.problem} /> : null}
      {save.saved ? <Notice tone="success">Policy saved. It applies at each person&apos;s next sign-in.</Notice> : null}
      <RoleCheckboxes
        name="second-factor-roles"
        idPrefix="second-factor"
        legend="Roles that must have a second factor"
        selected={roles}
        onChange={setRoles}
        disabled={!canEdit}
      />
      {canEdit ? (
        <Button type="submit" disabled={save.pending}>
          {save.pending ? "Saving…" : "Save policy"}
        </Button>
      ) : null}
    </form>
  );
}
