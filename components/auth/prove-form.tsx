"use client";

import type { FormEvent } from "react";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import type { ProofMethod } from "@/lib/auth/proof-method";
import { usePasskey } from "./use-passkey";

type Proof =
  | { method: "totp" | "recovery"; code: string }
  | { method: "password"; password: string }
  | { method: "passkey"; response: unknown };

/**
 * Proving it is the person (POST /api/session/proof): the sign-in's second step and the
 * step-up prompt. One field takes an authenticator code (6 digits) or a recovery code; a
 * passkey is a button; a person with no second factor gives the password.
 */
export function ProveForm({
  methods,
  onProved,
  submitLabel = "Confirm",
  autoFocus = true,
}: {
  methods: readonly ProofMethod[];
  onProved: () => void;
  submitLabel?: string;
  autoFocus?: boolean;
}) {
  const prove = useApiMutation<unknown, Proof>((body) => ({ method: "POST", url: "/api/session/proof", body }), {
    onSuccess: onProved,
  });
  const passkey = usePasskey("prove");
  const password = methods.includes("password");
  const codeLabel = methods.includes("totp") ? "Authenticator app code or a recovery code" : "Recovery code";
  const problem = prove.problem;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    passkey.clearProblem();
    const form = new FormData(event.currentTarget);
    if (password) return prove.send({ method: "password", password: String(form.get("password") ?? "") });
    const code = String(form.get("code") ?? "").trim();
    prove.send({ method: /^\d{6}$/.test(code.replace(/\s/g, "")) ? "totp" : "recovery", code: code.replace(/\s/g, "") });
  }

  function proveWithPasskey() {
    prove.reset();
    void passkey.start((response) => prove.send({ method: "passkey", response }));
  }

  if (methods.includes("sso")) return <SsoStepUp />;
  const shownProblem = passkey.problem ?? (problem && !problem.errors ? problem : null);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Confirm it is you">
      {shownProblem ? (
        <Notice
          tone="error"
          testId="prove-problem"
          correlationId={typeof shownProblem === "string" ? undefined : shownProblem.correlationId}
        >
          {typeof shownProblem === "string" ? shownProblem : shownProblem.detail}
        </Notice>
      ) : null}
      {password ? (
        <Field
          label="Your password"
          name="password"
          type="password"
          autoComplete="current-password"
          autoFocus={autoFocus}
          error={problem?.errors?.password}
          maxLength={256}
        />
      ) : (
        <Field
          label={codeLabel}
          name="code"
          autoComplete="one-time-code"
          inputMode={methods.includes("totp") ? "numeric" : "text"}
          autoFocus={autoFocus}
          spellCheck={false}
          error={problem?.errors?.code ?? (problem?.errors ? Object.values(problem.errors).flat() : undefined)}
          maxLength={40}
          hint={methods.includes("totp") ? "The 6 digits your app shows now, or one of your recovery codes." : undefined}
        />
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" disabled={prove.pending || passkey.pending} className="sm:flex-1">
          {prove.pending ? "Checking…" : submitLabel}
        </Button>
        {methods.includes("passkey") ? (
          <Button
            type="button"
            variant="secondary"
            onClick={proveWithPasskey}
            disabled={prove.pending || passkey.pending}
            className="sm:flex-1"
          >
            {passkey.pending ? "Waiting for the passkey…" : "Use a passkey"}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * A session opened by single sign-on proves it is the person by signing in at the IdP again
 * (a full page load there and back to this page, lib/auth/sso); the action is then done again.
 */
function SsoStepUp() {
  function go() {
    const back = `${window.location.pathname}${window.location.search}`;
    const params = new URLSearchParams({ purpose: "step-up", callbackUrl: back });
    window.location.assign(new URL(`/api/auth/sso?${params}`, window.location.origin).toString());
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">You come back to this page afterwards: then do it again.</p>
      <Button type="button" className="w-full" onClick={go}>
        Sign in again with single sign-on
      </Button>
    </div>
  );
}
