"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { utcTime } from "@/components/ui/utc-time";
import type { LinkDelivery } from "@/lib/staff/access-links/deliver-link";

/** Why the link is shown rather than emailed (LinkDelivery's `why`), as the admin reads it. */
const WHY = {
  no_mail: "No mail is set up",
  local_catcher: "Local mode catches email rather than sending it",
  refused: "The mail server did not take the email",
} as const;

/**
 * What the admin is told after a link was made: with mail, that it was emailed; without (or when
 * the mail server did not take it), the link itself, this once (it lives only in this answer and
 * this component's props; the server keeps its hash), to copy and pass on through a channel the
 * person trusts.
 */
export function ShownOnceLink({
  delivery,
  what,
  email,
  expiresAt,
}: {
  delivery: LinkDelivery;
  what: string;
  email: string;
  expiresAt: string;
}) {
  if (delivery.via === "email")
    return (
      <div role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-200">
        {what} sent to {email}. It works once, until {utcTime(expiresAt)}.
      </div>
    );
  return (
    <div
      role="status"
      className="space-y-2 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-200"
      data-testid="shown-once-link"
    >
      <p>
        <span className="font-medium">
          {what} for {email}.
        </span>{" "}
        {WHY[delivery.why]}, so give them this link yourself, through a channel you trust. It is shown only now, works once, and
        expires {utcTime(expiresAt)}.
      </p>
      <label className="block">
        <span className="sr-only">The one-time link</span>
        <input
          readOnly
          value={delivery.url}
          data-testid="one-time-link"
          onFocus={(e) => e.currentTarget.select()}
          className="block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-xs text-slate-900 ring-1 ring-inset ring-emerald-300"
        />
      </label>
      <CopyButton value={delivery.url} label="Copy link" what="the link" testId="copy-link" />
    </div>
  );
}

/** The link of a new invitation (inviteStaff's and resendInvitation's answer), as ShownOnceLink shows it. */
export function ShownInvitationLink({
  what,
  issued: { delivery, invitation },
}: {
  what: string;
  issued: { delivery: LinkDelivery; invitation: { email: string; expiresAt: string } };
}) {
  return <ShownOnceLink delivery={delivery} what={what} email={invitation.email} expiresAt={invitation.expiresAt} />;
}
