"use client";

import { Fragment, useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * The authenticator key in groups of four, as the apps print it (spaces are ignored when
 * typed): each group kept whole when the line wraps, and a button that copies the key
 * without spaces, for a phone whose own screen shows the QR code.
 */
export function TotpKey({ secret }: { secret: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const groups = secret.match(/.{1,4}/g) ?? [];
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }
  return (
    <span className="mt-1 flex flex-wrap items-center gap-2">
      <code data-testid="totp-key" className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-900">
        {groups.map((group, i) => (
          <Fragment key={i}>
            {i > 0 ? " " : null}
            <span className="whitespace-nowrap">{group}</span>
          </Fragment>
        ))}
      </code>
      <Button type="button" variant="secondary" onClick={copy}>
        Copy key
      </Button>
      <span role="status" className="text-slate-600">
        {copied === "yes" ? "Key copied." : copied === "no" ? "This browser did not allow copying: select the key instead." : ""}
      </span>
    </span>
  );
}
