"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import type { ApiProblem } from "@/components/api-client";
import { Button, buttonClass } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { FACTOR_DESCRIPTIONS, SECOND_FACTOR_KINDS, type SecondFactorKind } from "@/lib/auth/second-factor/kinds";
import { RecoveryCodes } from "./recovery-codes";
import { TotpKey } from "./totp-key";
import { usePasskey } from "./use-passkey";

type TotpStart = { factorId: string; secret: string; uri: string; qrSvg: string };
type Enrolled = { factorId: string; recoveryCodes: string[] | null };
type SectionProps = { onEnrolled: (data: Enrolled) => void };

/** How a person adds each kind of second factor: one section each, in the kinds' order. */
const SECTIONS: Record<SecondFactorKind, (props: SectionProps) => ReactNode> = {
  totp: TotpSection,
  passkey: PasskeySection,
};

/**
 * Adding a second factor, named by the person if they like: an authenticator app (its otpauth:
 * link opened on the device showing the page, its QR code scanned from another, or its key
 * copied or typed; then a first code to confirm) or a passkey. The first factor brings
 * recovery codes, shown once. With `doneHref` (the enrolment a sign-in requires) the person
 * continues there afterwards; without it (Account security) the page is refreshed.
 */
export function EnrolSecondFactor({ doneHref }: { doneHref?: string }) {
  const router = useRouter();
  const [enrolled, setEnrolled] = useState<Enrolled | null>(null);

  function onEnrolled(data: Enrolled) {
    if (!data.recoveryCodes) return done();
    setEnrolled(data);
    // Account security lists the new factor beside its codes (this component keeps its state).
    if (!doneHref) router.refresh();
  }

  function done() {
    setEnrolled(null);
    if (doneHref) window.location.assign(doneHref);
    else router.refresh();
  }

  if (enrolled?.recoveryCodes)
    return <RecoveryCodes codes={enrolled.recoveryCodes} onDone={done} doneLabel={doneHref ? "Continue" : "Done"} />;
  return (
    <div className="space-y-6">
      {SECOND_FACTOR_KINDS.map((kind, i) => {
        const Section = SECTIONS[kind];
        return (
          <section
            key={kind}
            aria-labelledby={`enrol-${kind}`}
            className={i === 0 ? "space-y-3" : "space-y-3 border-t border-slate-200 pt-5"}
          >
            <h2 id={`enrol-${kind}`} className="text-base font-semibold text-slate-900">
              {FACTOR_DESCRIPTIONS[kind].label}
            </h2>
            <Section onEnrolled={onEnrolled} />
          </section>
        );
      })}
    </div>
  );
}

/** An authenticator app: named and started, then confirmed with the first code it shows. */
function TotpSection({ onEnrolled }: SectionProps) {
  const [totp, setTotp] = useState<TotpStart | null>(null);
  const start = useApiMutation<TotpStart, { name?: string }>(
    (body) => ({ method: "POST", url: "/api/account/second-factors/totp", body }),
    { onSuccess: (data) => setTotp(data) },
  );
  const confirm = useApiMutation<Enrolled, { factorId: string; code: string }>(
    (body) => ({ method: "POST", url: "/api/account/second-factors/totp/confirmation", body }),
    {
      onSuccess: (data) => {
        setTotp(null);
        onEnrolled(data);
      },
    },
  );

  function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").replace(/\s/g, "");
    if (totp) confirm.send({ factorId: totp.factorId, code });
  }

  if (!totp)
    return (
      <NameAndStart
        kind="totp"
        label="Set up an authenticator app"
        problem={withoutFieldErrors(start.problem)}
        nameError={start.problem?.errors?.name}
        onStart={(name) => start.send(name)}
      >
        <Button type="submit" disabled={start.pending}>
          {start.pending ? "Preparing…" : "Set up an authenticator app"}
        </Button>
      </NameAndStart>
    );
  return (
    <form onSubmit={onConfirm} noValidate className="space-y-4" aria-label="Confirm the authenticator app">
      <ol className="list-decimal space-y-3 pl-5 text-sm text-slate-700">
        <li>
          Add this account to the app, whichever way suits the device it is on:
          <p className="mt-2">
            {/* The otpauth: link opens the authenticator app of the device showing this page (a phone cannot scan its own screen). */}
            <a href={totp.uri} className={buttonClass("secondary")}>
              Open in authenticator app
            </a>{" "}
            <span className="text-slate-600">on this device,</span>
          </p>
          <p className="mt-2 text-slate-600">or scan this QR code with the app on another device,</p>
          {/* A QR code made on the server for this enrolment only: nothing for next/image to optimise or cache. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(totp.qrSvg)}`}
            alt="QR code to add this account to an authenticator app"
            width={176}
            height={176}
            className="mt-2 rounded-md ring-1 ring-slate-200"
          />
          <p className="mt-2 text-slate-600">or enter this key in the app:</p>
          <TotpKey secret={totp.secret} />
        </li>
        <li>Enter the 6-digit code the app now shows for this account.</li>
      </ol>
      <Field
        label="Code from the app"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={7}
        error={confirm.problem?.errors?.code}
        className="max-w-40 font-mono tracking-widest"
      />
      <Refusal problem={withoutFieldErrors(confirm.problem)} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={confirm.pending}>
          {confirm.pending ? "Checking…" : "Confirm"}
        </Button>
        <Button type="button" variant="secondary" onClick={() => setTotp(null)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A passkey: named, then registered through the browser's prompt in one go. */
function PasskeySection({ onEnrolled }: SectionProps) {
  const passkey = usePasskey("register");
  const register = useApiMutation<Enrolled, { name?: string; response: unknown }>(
    (body) => ({ method: "POST", url: "/api/account/second-factors/passkeys", body }),
    { onSuccess: onEnrolled },
  );
  const waiting = passkey.pending || register.pending;
  return (
    <NameAndStart
      kind="passkey"
      label="Add a passkey"
      problem={passkey.problem ?? withoutFieldErrors(register.problem)}
      nameError={register.problem?.errors?.name}
      onStart={({ name }) => {
        register.reset();
        void passkey.start((response) => register.send({ name, response }));
      }}
    >
      <Button type="submit" variant="secondary" disabled={waiting}>
        {waiting ? "Waiting for the passkey…" : "Add a passkey"}
      </Button>
    </NameAndStart>
  );
}

/** The first step of adding a factor: what it is, its optional name, and the button that starts it. */
function NameAndStart({
  kind,
  label,
  problem,
  nameError,
  onStart,
  children: button,
}: {
  kind: SecondFactorKind;
  label: string;
  problem: ApiProblem | string | null;
  nameError?: string[];
  onStart: (name: { name?: string }) => void;
  children: ReactNode;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onStart(named(event.currentTarget));
  }
  return (
    <form noValidate aria-label={label} className="space-y-3" onSubmit={submit}>
      <Refusal problem={problem} />
      <p className="text-sm text-slate-600">{FACTOR_DESCRIPTIONS[kind].hint}</p>
      <NameField idPrefix={kind} error={nameError} />
      {button}
    </form>
  );
}

/** A refusal not about one field, said at the top of its form. */
function Refusal({ problem }: { problem: ApiProblem | string | null }) {
  if (!problem) return null;
  return (
    <Notice tone="error" testId="enrol-problem" correlationId={typeof problem === "string" ? undefined : problem.correlationId}>
      {typeof problem === "string" ? problem : problem.detail}
    </Notice>
  );
}

/** A factor's optional name, so that a list of several tells them apart ("Work phone", "Laptop"). */
function NameField({ idPrefix, error }: { idPrefix: string; error?: string[] }) {
  return (
    <Field
      id={`${idPrefix}-name`}
      label="Name (optional)"
      name="name"
      hint="So you can tell your devices apart, e.g. “Work phone”."
      autoComplete="off"
      maxLength={60}
      error={error}
      className="max-w-xs"
    />
  );
}

/** The form's name, or none when left empty (the server names it after its kind). */
function named(form: HTMLFormElement): { name?: string } {
  const name = String(new FormData(form).get("name") ?? "").trim();
  return name ? { name } : {};
}

function withoutFieldErrors(problem: ApiProblem | null): ApiProblem | null {
  return problem && !problem.errors ? problem : null;
}
