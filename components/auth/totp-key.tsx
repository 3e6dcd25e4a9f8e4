import { Fragment } from "react";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * The authenticator key in groups of four, as the apps print it (spaces are ignored when
 * typed): each group kept whole when the line wraps, and a button that copies the key
 * without spaces, for a phone whose own screen shows the QR code.
 */
export function TotpKey({ secret }: { secret: string }) {
  const groups = secret.match(/.{1,4}/g) ?? [];
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
      <CopyButton value={secret} label="Copy key" what="the key" testId="copy-totp-key" />
    </span>
  );
}
