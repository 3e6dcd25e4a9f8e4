"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { utcTime } from "@/components/ui/utc-time";
import type { FactorView, MyFactors as Mine } from "@/lib/auth/second-factor/manage-factors";
import { FACTOR_DESCRIPTIONS } from "@/lib/auth/second-factor/kinds";
import { RecoveryCodes } from "./recovery-codes";

/** The person's own factors, each removable, and a fresh set of recovery codes on demand. */
export function MyFactors({ mine }: { mine: Mine }) {
  const router = useRouter();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const remove = useApiMutation(
    (id: string) => ({ method: "DELETE", url: `/api/account/second-factors/${encodeURIComponent(id)}` }),
    {
      onSuccess: () => router.refresh(),
    },
  );
  const regenerate = useApiMutation<{ recoveryCodes: string[] }>(
    () => ({ method: "POST", url: "/api/account/recovery-codes", body: {} }),
    {
      onSuccess: (data) => setCodes(data.recoveryCodes),
    },
  );
  if (codes) return <RecoveryCodes codes={codes} onDone={() => (setCodes(null), router.refresh())} />;
  const problem = remove.problem ?? regenerate.problem;
  return (
    <div className="space-y-4">
      {problem ? (
        <Notice tone="error" correlationId={problem.correlationId}>
          {problem.detail}
        </Notice>
      ) : null}
      {mine.factors.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-second-factor">
          None yet. Sign-in asks only for your password.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200" data-testid="my-factors">
          {mine.factors.map((factor) => (
            <li key={factor.id} className="px-3 py-2 text-sm" data-testid="my-factor">
              {renaming === factor.id ? (
                <RenameFactor factor={factor} onDone={() => setRenaming(null)} />
              ) : (
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span>
                    <span className="font-medium text-slate-900" data-testid="factor-name">
                      {factor.name}
                    </span>{" "}
                    <span className="text-slate-600">
                      {factor.name === FACTOR_DESCRIPTIONS[factor.kind].label ? null : (
                        <>· {FACTOR_DESCRIPTIONS[factor.kind].label} </>
                      )}
                      · added {utcTime(factor.createdAt)}
                      {factor.lastUsedAt ? <> · last used {utcTime(factor.lastUsedAt)}</> : null}
                    </span>
                  </span>
                  <span className="flex gap-2">
                    <Button variant="secondary" onClick={() => setRenaming(factor.id)} aria-label={`Rename ${factor.name}`}>
                      Rename
                    </Button>
                    <Button variant="secondary" disabled={remove.pending} onClick={() => remove.send(factor.id)}>
                      Remove
                    </Button>
                  </span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {mine.factors.length > 0 ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-600" data-testid="recovery-codes-left">
            {mine.recoveryCodesLeft} unused recovery code{mine.recoveryCodesLeft === 1 ? "" : "s"}.
          </p>
          <Button variant="secondary" disabled={regenerate.pending} onClick={() => regenerate.send()}>
            New recovery codes
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** Names a factor in place ("Work phone"); the server's field message shows beside the name. */
function RenameFactor({ factor, onDone }: { factor: FactorView; onDone: () => void }) {
  const router = useRouter();
  const rename = useApiMutation(
    (name: string) => ({
      method: "PATCH",
      url: `/api/account/second-factors/${encodeURIComponent(factor.id)}`,
      body: { name },
    }),
    {
      onSuccess: () => {
        onDone();
        router.refresh();
      },
    },
  );
  return (
    <form
      noValidate
      aria-label={`Rename ${factor.name}`}
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        rename.send(String(new FormData(event.currentTarget).get("name") ?? ""));
      }}
    >
      <div className="min-w-48 flex-1">
        <Field
          id={`rename-${factor.id}`}
          label={`New name for “${factor.name}”`}
          name="name"
          defaultValue={factor.name}
          autoComplete="off"
          maxLength={60}
          error={rename.problem?.errors?.name}
        />
      </div>
      <Button type="submit" disabled={rename.pending}>
        {rename.pending ? "Saving…" : "Save name"}
      </Button>
      <Button type="button" variant="secondary" onClick={onDone}>
        Cancel
      </Button>
      {rename.problem && !rename.problem.errors ? (
        <div className="w-full">
          <Notice tone="error" correlationId={rename.problem.correlationId}>
            {rename.problem.detail}
          </Notice>
        </div>
      ) : null}
    </form>
  );
}
