"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { utcTime } from "@/components/ui/utc-time";
import type { MyFactors as Mine } from "@/lib/auth/second-factor/manage-factors";
import { RecoveryCodes } from "./recovery-codes";

const KINDS = { totp: "Authenticator app", passkey: "Passkey" } as const;

/** The person's own factors, each removable, and a fresh set of recovery codes on demand. */
export function MyFactors({ mine }: { mine: Mine }) {
  const router = useRouter();
  const [codes, setCodes] = useState<string[] | null>(null);
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
            <li key={factor.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span>
                <span className="font-medium text-slate-900">{factor.name}</span>{" "}
                <span className="text-slate-500">
                  · {KINDS[factor.kind]} · added {utcTime(factor.createdAt)}
                  {factor.lastUsedAt ? <> · last used {utcTime(factor.lastUsedAt)}</> : null}
                </span>
              </span>
              <Button variant="secondary" disabled={remove.pending} onClick={() => remove.send(factor.id)}>
                Remove
              </Button>
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
