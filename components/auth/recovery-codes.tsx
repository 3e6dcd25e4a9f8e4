"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/** Fresh recovery codes, shown this once: each works one time when the second factor is not at hand. */
export function RecoveryCodes({
  codes,
  onDone,
  doneLabel = "Done",
}: {
  codes: string[];
  onDone: () => void;
  doneLabel?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-4">
      <Notice tone="warning" title="Save your recovery codes">
        Each code signs you in once if you lose your authenticator or passkey. They are shown only now: keep them in a password
        manager or print them.
      </Notice>
      <ol
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-2 rounded-md bg-slate-50 p-4 font-mono text-sm ring-1 ring-slate-200"
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard.writeText(codes.join("\n")).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy codes"}
        </Button>
        <Button type="button" onClick={onDone}>
          {`I have saved them — ${doneLabel.toLowerCase()}`}
        </Button>
      </div>
    </div>
  );
}
