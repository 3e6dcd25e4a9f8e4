import { emailPage, escapeHtml, utcMinute, type Email } from "@/lib/notifications/compose";
import type { AccessLinkPurpose } from "./link-rules";

/**
 * The email that carries a one-time link to its person (pure): what it is for, who it is from,
 * the link, when it stops working, and what to do if it was not expected. The link is the only
 * secret in it, and only this email carries it. While SSO-only mode turns passwords off
 * (`signInWith`: the IdP's name), an invitation says to sign in with the IdP through the link.
 */
export function composeLinkEmail(link: {
  purpose: AccessLinkPurpose;
  name: string;
  url: string;
  expiresAt: Date;
  from: string;
  signInWith?: string | null;
}): Email {
  const until = utcMinute(link.expiresAt);
  const invitation = link.purpose === "invitation";
  const subject = invitation ? `${link.from} invited you to the back office` : "Set a new password for the back office";
  const lead = invitation
    ? link.signInWith
      ? `${link.from} invited you to the back office, which you sign in to with ${link.signInWith}. Open this link and sign in with it as this address; your account is made then.`
      : `${link.from} invited you to the back office. Open this link to set your password; you will then set up your second factor if your role needs one.`
    : `${link.from} asked for your password to be reset: your old password no longer works. Open this link to set a new one.`;
  const rest = `The link works once, until ${until}. If you did not expect this email, ignore it: nothing happens until the link is opened.`;
  const text = [`Hello ${link.name},`, "", lead, "", link.url, "", rest].join("\n");
  const html = emailPage(
    `<p style="margin:0 0 12px">Hello ${escapeHtml(link.name)},</p>` +
      `<p style="margin:0 0 12px">${escapeHtml(lead)}</p>` +
      `<p style="margin:0 0 12px"><a href="${escapeHtml(link.url)}">${invitation ? (link.signInWith ? "Open your invitation" : "Set your password") : "Set a new password"}</a></p>` +
      `<p style="color:#555;margin:0">${escapeHtml(rest)}</p>`,
  );
  return { subject, text, html };
}
