"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { RoleCheckboxes } from "./role-checkboxes";

/** `activeEmails`: who may sign in now, so the "can now sign in" notice never outlives a deactivation. */
export function CreateStaffForm({ activeEmails }: { activeEmails: string[] }) {
  const router = useRouter();
  const [roles, setRoles] = useState<string[]>([]);
  const create = useApiMutation<{ email: string }, { form: HTMLFormElement; body: Record<string, unknown> }>(
    ({ body }) => ({ method: "POST", url: "/api/staff", body }),
    {
      onSuccess: (_, { form }) => {
        setRoles([]);
        form.reset();
        router.refresh();
      },
    },
  );
  const { pending, problem } = create;
  const created = create.data?.email ?? null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.send({
      form: event.currentTarget,
      body: { email: form.get("email"), name: form.get("name"), password: form.get("password"), roles },
    });
  }

  const errors = problem?.errors ?? {};
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Add a person">
      {problem && !problem.errors ? (
        <Notice tone="error" title={problem.title} correlationId={problem.correlationId}>
          {problem.detail}
        </Notice>
      ) : null}
      {created && activeEmails.includes(created) ? (
        <Notice tone="success" testId="staff-created">
          {created} can now sign in.
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" name="name" autoComplete="off" error={errors.name} />
        <Field label="Email" name="email" type="email" autoComplete="off" error={errors.email} />
      </div>
      <Field
        label="Initial password"
        name="password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
        hint="At least 12 characters. Give it to the person through a separate channel."
      />
      <RoleCheckboxes name="roles" selected={roles} onChange={setRoles} error={errors.roles} idPrefix="create" />
      <Button type="submit" disabled={pending}>
        {pending ? "Adding…" : "Add person"}
      </Button>
    </form>
  );
}
