"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Notice, ProblemNotice } from "@/components/ui/notice";

/** Single sign-on as the only way in (passwords refused except the break-glass account's). */
export function SsoOnlyForm({
  ssoOnly: initial,
  configured,
  name,
  breakGlassEmail,
  canEdit,
}: {
  ssoOnly: boolean;
  configured: boolean;
  name: string | null;
  breakGlassEmail: string | null;
  canEdit: boolean;
}) {
  const router = useRouter();
  const [ssoOnly, setSsoOnly] = useState(initial);
  const save = useApiMutation((body: { ssoOnly: boolean }) => ({ method: "PUT", url: "/api/settings/sso", body }), {
    onSuccess: () => router.refresh(),
  });
  return (
    <ActionForm label="Single sign-on" onSubmit={() => save.send({ ssoOnly })}>
      <p className="text-sm text-slate-600" data-testid="sso-status">
        {configured
          ? `Single sign-on with ${name} is set up: staff can sign in with it, matched by their verified email.`
          : "Single sign-on is not set up (SSO_ISSUER, SSO_CLIENT_ID and SSO_CLIENT_SECRET in the environment; see the README). Staff sign in with their password."}
      </p>
      {save.problem ? <ProblemNotice problem={save.problem} /> : null}
      {save.saved ? <Notice tone="success">Saved. It applies from the next sign-in.</Notice> : null}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="sso-only"
          className="mt-0.5"
          checked={ssoOnly}
          disabled={!canEdit || (!configured && !initial)}
          onChange={(event) => setSsoOnly(event.target.checked)}
        />
        <span>
          <span className="font-medium">Sign in with single sign-on only</span>
          <span className="block text-xs text-slate-500">
            Passwords are refused, except for the emergency account
            {breakGlassEmail ? ` (${breakGlassEmail})` : " (none is set: SSO_BREAK_GLASS_EMAIL)"}, which keeps a way in if the
            identity provider fails. Sessions already open stay open.
          </span>
        </span>
      </label>
      {canEdit && (configured || initial) ? (
        <Button type="submit" disabled={save.pending}>
          {save.pending ? "Saving…" : "Save sign-in setting"}
        </Button>
      ) : null}
    </ActionForm>
  );
}
