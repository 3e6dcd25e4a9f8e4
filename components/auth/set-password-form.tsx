"use client";

import { useState, type FormEvent } from "react";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

/**
 * The password form of a one-time link's page (an invitation, an admin's reset): the password
 * twice, sent with the link's token to `url`. Once accepted, the browser holds a new session and
 * goes through the sign-in steps it still owes (a second factor, or enrolling one) to the app.
 */
export function SetPasswordForm({
  url,
  token,
  email,
  submitLabel,
}: {
  url: string;
  token: string;
  email: string;
  submitLabel: string;
}) {
  const [mismatch, setMismatch] = useState(false);
  const use = useApiMutation<unknown, { password: string }>(
    ({ password }) => ({ method: "POST", url, body: { token, password } }),
    {
      onSuccess: () => {
        // A full page load, as after signing in, so the new session's pages render from the server.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination
        window.location.assign("/signin/verify?callbackUrl=%2F");
      },
    },
  );
  const { pending, problem } = use;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("repeat") ?? "")) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    use.send({ password });
  }

  const errors = problem?.errors ?? {};
  const tokenError = errors.token ? "This link is not valid: open the whole link you were given." : null;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Set your password">
      {problem && (!problem.errors || tokenError) ? (
        <Notice tone="error" testId="set-password-error" correlationId={problem.correlationId}>
          {tokenError ?? problem.detail}
        </Notice>
      ) : null}
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        maxLength={256}
        error={errors.password}
        hint="At least 12 characters; not a common password, your name or your email. A few unrelated words work well."
      />
      <Field
        label="Repeat the password"
        name="repeat"
        type="password"
        autoComplete="new-password"
        maxLength={256}
        error={mismatch ? ["The two passwords differ."] : undefined}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Saving…" : submitLabel}
      </Button>
    </form>
  );
}
