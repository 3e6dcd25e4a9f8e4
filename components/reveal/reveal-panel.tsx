"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { RefusalNotice } from "@/components/ui/notice";
import { utcTime } from "@/components/ui/utc-time";

type Artifact = { type: string; value: string; expiresAtUtc: string | null };
type RevealRequest = { idempotencyKey: string; ticket: unknown; reason: unknown; password?: unknown };

/** The upstream's artifact kinds, in words. */
const ARTIFACT_KINDS: Record<string, string> = {
  code: "code",
  pin: "PIN",
  "claim-url": "claim link",
  "activation-code": "activation code",
  reference: "top-up reference",
};

/**
 * Which unit each artifact belongs to. The reveal lists artifacts unit after unit, each
 * unit in the same order of kinds (a code then its PIN), so a unit starts wherever the
 * first kind comes again.
 */
function unitsOf(artifacts: Artifact[]): { unit: number; units: number }[] {
  const first = artifacts[0]?.type;
  const units = artifacts.filter((a) => a.type === first).length;
  let unit = 0;
  return artifacts.map((a) => {
    if (a.type === first) unit += 1;
    return { unit: Math.max(unit, 1), units: Math.max(units, 1) };
  });
}

const MESSAGES: Record<string, string> = {
  order_not_fulfilled: "This order is not fulfilled yet, so it has no codes to reveal.",
  reveal_quota_exceeded: "You have reached the hourly reveal limit. An admin has been alerted.",
  step_up_failed: "That password is not right.",
  step_up_required: "Confirm it is you to reveal codes.",
};

/**
 * Support's reveal step: a ticket, a reason and the password, then the codes — masked,
 * shown one at a time, copyable — for a limited time. The codes live only in this
 * component's mutation (no query cache, no storage): closing the view resets it, and the
 * mutation cache lets go of it at once (useApiMutation's gcTime 0).
 */
export function RevealPanel({
  orderId,
  viewSeconds,
  askPassword = true,
}: {
  orderId: string;
  viewSeconds: number;
  /** False for a person with a second factor: the step-up prompt asks for it when the last proof is old. */
  askPassword?: boolean;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<number | null>(null);
  const [copied, setCopied] = useState<number | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(viewSeconds);
  const key = useRef<string | null>(null);
  const reveal = useApiMutation<{ artifacts: Artifact[] }, RevealRequest>(
    (body) => ({ method: "POST", url: `/api/orders/${encodeURIComponent(orderId)}/reveal`, body }),
    {
      onSuccess: () => {
        setSecondsLeft(viewSeconds);
        router.refresh(); // the reveal history below shows this reveal at once
      },
    },
  );
  const { pending, problem } = reveal;
  const artifacts = reveal.data?.artifacts ?? null;

  function close() {
    reveal.reset();
    setShown(null);
    setOpen(false);
    key.current = null;
    router.refresh(); // the reveal history below picks up this reveal
  }

  useEffect(() => {
    if (!artifacts) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const left = viewSeconds - Math.floor((Date.now() - started) / 1000);
      if (left <= 0) close();
      else setSecondsLeft(left);
    }, 250);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one timer per revealed view
  }, [artifacts]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The same key for retries of this attempt (a network error must not count twice upstream).
    key.current ??= crypto.randomUUID();
    reveal.send({
      idempotencyKey: key.current,
      ticket: form.get("ticket"),
      reason: form.get("reason"),
      password: form.get("password") || undefined,
    });
  }

  if (!open) {
    return (
      <Button type="button" onClick={() => setOpen(true)}>
        Reveal codes
      </Button>
    );
  }

  if (artifacts) {
    const labels = unitsOf(artifacts);
    return (
      <div data-testid="revealed-codes" className="space-y-3">
        <p className="text-sm text-slate-700" aria-live="polite">
          This view closes in <span data-testid="reveal-countdown">{secondsLeft}</span> s. Treat codes like passwords.
        </p>
        <ul className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200">
          {artifacts
            .map((artifact, i) => ({ artifact, ...labels[i]! }))
            .map(({ artifact, unit, units }, i) => (
              <li key={i} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                <span className="text-slate-600" data-testid="artifact-label">
                  <span className="font-medium text-slate-900">
                    Unit {unit} of {units}
                  </span>{" "}
                  · {ARTIFACT_KINDS[artifact.type] ?? artifact.type}
                  {artifact.expiresAtUtc ? <> · expires {utcTime(artifact.expiresAtUtc)}</> : null}
                </span>
                <span className="font-mono" data-testid="artifact-value">
                  {shown === i ? artifact.value : "••••••••••••"}
                </span>
                <span className="flex gap-2">
                  <Button type="button" variant="secondary" onClick={() => setShown(shown === i ? null : i)}>
                    {shown === i ? "Hide" : "Show"}
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={async () => {
                      await navigator.clipboard.writeText(artifact.value).catch(() => undefined);
                      setCopied(i);
                    }}
                  >
                    {copied === i ? "Copied" : "Copy"}
                  </Button>
                </span>
              </li>
            ))}
        </ul>
        <Button type="button" variant="secondary" onClick={close}>
          Close now
        </Button>
      </div>
    );
  }

  const err = (field: string) => problem?.errors?.[field];
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Reveal codes">
      <p className="text-sm text-slate-600">Every reveal is recorded with your reason and counted by the Issuing Service.</p>
      {problem && !problem.errors ? (
        <RefusalNotice problem={problem} testId="reveal-problem">
          {MESSAGES[problem.code] ?? problem.detail}
        </RefusalNotice>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-[1fr_2fr]">
        <Field label="Ticket reference" name="ticket" maxLength={64} autoComplete="off" error={err("ticket")} />
        <Field label="Reason" name="reason" maxLength={500} autoComplete="off" error={err("reason")} />
      </div>
      {askPassword ? (
        <Field
          label="Your password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={err("password")}
          hint="Confirms it is you (asked again after a few minutes)."
        />
      ) : (
        <p className="text-sm text-slate-600">
          Your second factor is asked again when you last gave it more than a few minutes ago.
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Revealing…" : "Reveal"}
        </Button>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            setOpen(false);
            reveal.reset();
            key.current = null;
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}
