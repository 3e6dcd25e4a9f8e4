import type { SsoFailure } from "./sso-round-trip";

/** What the sign-in page says when single sign-on sent the browser back without a session (`?sso=<reason>`). */
export const SSO_MESSAGES: Record<SsoFailure, string> = {
  unverified:
    "Your identity provider did not confirm that the email address is yours, so it cannot sign you in here. Ask your IT team to verify it.",
  email_characters:
    "The email address your identity provider gave has characters other than plain letters, digits and punctuation, so it cannot sign you in here. Ask your IT team to check the address.",
  domain: "People of your email's domain cannot sign in here. Sign in with your work account, or ask an admin to add you.",
  unknown_account: "No account here uses your email address. Ask an admin to add you.",
  deactivated: "Your account is deactivated. Ask an admin if you need access again.",
  expired: "The sign-in took too long or was started in another window. Try again.",
  cancelled: "Single sign-on was cancelled at your identity provider.",
  failed: "Single sign-on could not be completed. Try again; if it keeps failing, tell your admin.",
  unavailable: "Your identity provider could not be reached. Try again in a moment.",
  not_configured: "Single sign-on is not set up for this workspace. Sign in with your email and password.",
};

export function ssoMessage(reason: unknown): string | null {
  return typeof reason === "string" && Object.hasOwn(SSO_MESSAGES, reason) ? SSO_MESSAGES[reason as SsoFailure] : null;
}
