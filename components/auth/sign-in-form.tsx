"use client";

import { useState, type FormEvent } from "react";
import { signIn } from "next-auth/react";
import {
  credentialsSchema,
  GENERIC_SIGN_IN_ERROR,
  PASSWORDS_OFF_ERROR,
  PASSWORDS_OFF_MESSAGE,
} from "@/lib/auth/credentials-schema";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

type Errors = { email?: string[]; password?: string[] };

/** `ended`: why the last session ended, when the person was sent here because it had (lib/auth/session-ended-message.ts). */
export function SignInForm({ callbackUrl, ended }: { callbackUrl: string; ended: string | null }) {
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const form = new FormData(event.currentTarget);
    const parsed = credentialsSchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Errors] ??= [issue.message];
      setErrors(next);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const result = await signIn("credentials", { ...parsed.data, redirect: false });
      if (result?.ok && !result.error) {
        // The second step (or enrolment) if the session still owes one, else straight on; a full
        // page load, as before, so the new session's pages render from the server.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination
        window.location.assign(`/signin/verify?callbackUrl=${encodeURIComponent(callbackUrl)}`);
        return;
      }
      setFailure(result?.error === PASSWORDS_OFF_ERROR ? PASSWORDS_OFF_MESSAGE : GENERIC_SIGN_IN_ERROR);
    } catch {
      setFailure("The sign-in service could not be reached. Check your connection and try again.");
    }
    setPending(false);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign in">
      {ended && !failure ? (
        <Notice tone="info" testId="session-ended">
          {ended}
        </Notice>
      ) : null}
      {failure ? (
        <Notice tone="error" testId="sign-in-error">
          {failure}
        </Notice>
      ) : null}
      <Field label="Email" name="email" type="email" autoComplete="username" error={errors.email} maxLength={300} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
        maxLength={300}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
