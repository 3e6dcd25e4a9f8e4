"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Link } from "@/components/ui/link";
import { Notice, ProblemNotice } from "@/components/ui/notice";
import { RoleCheckboxes } from "@/components/staff/role-checkboxes";
import { policyGaps, type FactorGap } from "@/lib/auth/second-factor/policy-rule";

type Saved = { roles: string[]; withoutFactor: number; includesYou: boolean };

const people = (n: number) => (n === 1 ? "1 person" : `${n} people`);

/**
 * Which roles must have a second factor; applies at each person's next sign-in. Before saving
 * it says how many people the chosen roles would send to enrol (from `gaps`, everyone without
 * a factor), and warns an admin who has none themselves; once saved, the server's count.
 */
export function SecondFactorPolicyForm({
  roles: initial,
  isDefault,
  canEdit,
  gaps,
}: {
  roles: string[];
  isDefault: boolean;
  canEdit: boolean;
  gaps: FactorGap[];
}) {
  const router = useRouter();
  const [roles, setRoles] = useState(initial);
  const save = useApiMutation<Saved, { roles: string[] }>(
    (body) => ({ method: "PUT", url: "/api/settings/second-factor-policy", body }),
    {
      onSuccess: () => router.refresh(),
    },
  );
  const preview = policyGaps(gaps, { roles });
  return (
    <ActionForm label="Second-factor policy" onSubmit={() => save.send({ roles })}>
      <p className="text-sm text-slate-600">
        People with these roles must set up an authenticator app or a passkey, and are asked for it at every sign-in. One who has
        none is led to set one up at their next sign-in and can do nothing else until then.
        {isDefault && initial.length === 0 ? " Off by default in local mode." : null}
      </p>
      {save.problem ? <ProblemNotice problem={save.problem} /> : null}
      {save.data ? (
        <Notice tone="success" testId="policy-saved">
          Policy saved. {gapWords(save.data.withoutFactor)}
        </Notice>
      ) : null}
      <RoleCheckboxes
        name="second-factor-roles"
        idPrefix="second-factor"
        legend="Roles that must have a second factor"
        selected={roles}
        onChange={(next) => {
          setRoles(next);
          save.reset();
        }}
        disabled={!canEdit}
      />
      {canEdit && roles.length > 0 && !save.data ? (
        <p className="text-sm text-slate-700" data-testid="policy-preview">
          {preview.withoutFactor === 0
            ? "Everyone with these roles has a second factor already."
            : `${people(preview.withoutFactor)} with these roles ${preview.withoutFactor === 1 ? "has" : "have"} no second factor yet: ${preview.withoutFactor === 1 ? "they are" : "each is"} led to set one up at their next sign-in.`}
        </p>
      ) : null}
      {canEdit && preview.includesYou ? (
        <Notice tone="warning" testId="policy-includes-you">
          You have no second factor yourself: your next sign-in will ask you to set one up before anything else.{" "}
          <Link href="/account/security" className="font-medium underline">
            Set one up now
          </Link>
          .
        </Notice>
      ) : null}
      {canEdit ? (
        <Button type="submit" disabled={save.pending}>
          {save.pending ? "Saving…" : "Save policy"}
        </Button>
      ) : null}
    </ActionForm>
  );
}

/** After a save: how many people the policy now sends to enrol. */
function gapWords(withoutFactor: number): string {
  if (withoutFactor === 0) return "Everyone it covers has a second factor already.";
  return `${people(withoutFactor)} it covers ${withoutFactor === 1 ? "has" : "have"} no second factor yet and will be led to set one up at their next sign-in.`;
}
