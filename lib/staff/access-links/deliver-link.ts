import "server-only";
import { randomUUID } from "node:crypto";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { sendEmail } from "@/lib/notifications/send-email";
import { passwordAllowed, readSsoOnly } from "@/lib/auth/sso/sso-only";
import { composeLinkEmail } from "./link-email";
import { linkUrl, type AccessLinkPurpose } from "./link-rules";

/**
 * How a link reached (or will reach) its person: by email, or shown once to the admin who made
 * it, to pass on, and why: no mail set up, local mode's mail catcher, or the SMTP server refused it.
 */
export type LinkDelivery = { via: "shown_once"; url: string; why: "no_mail" | "local_catcher" | "refused" } | { via: "email" };

/**
 * The one place a new link leaves the app, called after the link's row and audit entry are
 * committed. With mail set up (SMTP_URL), it is emailed to the person, at once and from this
 * request rather than through the notification outbox: the outbox keeps what it will send in the
 * database, where a working link must never sit (only its hash does). When the SMTP server does
 * not take it, or no mail is set up, the admin sees the link in the answer, once, to pass on.
 *
 * Local mode's mail catcher is no mail server: it keeps what it catches in the database for
 * admins to read, so a link is shown to the admin there too, not caught.
 */
export async function deliverAccessLink(link: {
  purpose: AccessLinkPurpose;
  email: string;
  name: string;
  url: string;
  expiresAt: Date;
  /** The admin who made it, named in the email. */
  from: string;
}): Promise<LinkDelivery> {
  const env = getEnv();
  if (!env.SMTP_URL) return { via: "shown_once", url: link.url, why: "no_mail" };
  if (env.MAIL_CATCHER === "1") return { via: "shown_once", url: link.url, why: "local_catcher" };
  const sso = await readSsoOnly();
  const signInWith = passwordAllowed(sso, link.email) ? null : sso.name;
  const outcome = await sendEmail(env.SMTP_URL, {
    ...composeLinkEmail({ ...link, signInWith }),
    to: link.email,
    from: env.MAIL_FROM,
    // Only its Message-ID comes from it; one send, never retried from a record.
    deliveryKey: `access-link:${randomUUID()}`,
  });
  if (outcome.kind === "sent") return { via: "email" };
  // The server's answer, never the link: nodemailer's errors carry the SMTP reply, not the message.
  logger.warn("one-time link not emailed; shown to the admin instead", { purpose: link.purpose, reason: outcome.reason });
  return { via: "shown_once", url: link.url, why: "refused" };
}

/** A link just committed, with its token (never stored), handed to `deliverAccessLink` under its address. */
export function deliverNewLink(
  link: { purpose: AccessLinkPurpose; email: string; name: string; expiresAt: Date; from: string },
  token: string,
): Promise<LinkDelivery> {
  return deliverAccessLink({ ...link, url: linkUrl(getEnv().APP_URL, link.purpose, token) });
}
