import { Providers } from "@/components/providers";
import { SignInFrame } from "@/components/auth/sign-in-frame";
import { SetPasswordForm } from "@/components/auth/set-password-form";
import { AccessLinkRefused } from "@/components/auth/access-link-refused";
import { SsoButton } from "@/components/auth/sso-sign-in";
import { utcTime } from "@/components/ui/utc-time";
import { readAccessLink } from "@/lib/staff/access-links/read-access-link";
import type { AccessLinkPurpose } from "@/lib/staff/access-links/link-rules";

type Words = {
  title: string;
  intro: (name: string) => string;
  submit: string;
  url: string;
  /** What the page says instead of the form while passwords are off (SSO-only mode). */
  sso: (idp: string) => string;
};

const WORDS: Record<AccessLinkPurpose, Words> = {
  invitation: {
    title: "Join the back-office",
    intro: (name) => `Welcome, ${name}. Choose the password you will sign in with.`,
    submit: "Set password and continue",
    url: "/api/invitations/acceptance",
    sso: (idp) =>
      `This workspace signs in with ${idp} only. Sign in with it as this address: your account is made then, with the access you were invited with.`,
  },
  password_reset: {
    title: "Set a new password",
    intro: (name) => `${name}, an admin reset your password. Choose a new one to sign in again.`,
    submit: "Set new password",
    url: "/api/password-resets/completion",
    sso: (idp) => `Passwords are turned off: this workspace signs in with ${idp} only, so there is no password to set.`,
  },
};

/**
 * The page a one-time link opens (public: the gate lets it through without a session). Opening
 * it changes nothing, so a mail scanner's visit does not spend it; the form's POST does. While
 * SSO-only mode turns passwords off, it offers single sign-on instead of the form (an invitation
 * is accepted there, lib/auth/sso/sign-in-with-sso.ts).
 */
export async function AccessLinkPage({ purpose, token }: { purpose: AccessLinkPurpose; token: string }) {
  const link = await readAccessLink(token, purpose);
  const words = WORDS[purpose];
  if (link.state !== "live")
    return (
      <SignInFrame title={words.title}>
        <AccessLinkRefused reason={link.state} />
      </SignInFrame>
    );
  if (link.sso)
    return (
      <SignInFrame title={words.title}>
        <p className="mb-4 text-sm text-slate-700" data-testid="link-sso-only">
          {words.sso(link.sso)}
        </p>
        <p className="mb-4 text-sm text-slate-700">
          Account:{" "}
          <span className="font-medium break-all" data-testid="link-email">
            {link.email}
          </span>
        </p>
        <SsoButton name={link.sso} callbackUrl="/" />
      </SignInFrame>
    );
  return (
    <SignInFrame title={words.title} intro={words.intro(link.name)}>
      <p className="mb-4 text-sm text-slate-700">
        Account:{" "}
        <span className="font-medium break-all" data-testid="link-email">
          {link.email}
        </span>
        <span className="block text-xs text-slate-500">This link works once, until {utcTime(link.expiresAt)}.</span>
      </p>
      <Providers>
        <SetPasswordForm url={words.url} token={token} email={link.email} submitLabel={words.submit} />
      </Providers>
    </SignInFrame>
  );
}
