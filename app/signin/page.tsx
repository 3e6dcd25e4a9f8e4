import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentSession } from "@/lib/auth/current";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { getEnv, ssoConfig } from "@/lib/env";
import { readSsoOnly } from "@/lib/auth/sso/sso-only";
import { ssoMessage } from "@/lib/auth/sso/messages";
import { endedSessionReason } from "@/lib/auth/ended-session";
import { sessionEndedMessage } from "@/lib/auth/session-ended-message";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SsoSignIn } from "@/components/auth/sso-sign-in";
import { Notice } from "@/components/ui/notice";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl, getEnv().APP_URL);
  if (await currentSession()) redirect(callbackUrl);
  const sso = ssoConfig();
  const ssoOnly = sso ? (await readSsoOnly()).ssoOnly : false;
  const ssoProblem = ssoMessage(params.sso);
  const ended = params.expired === "1" && !ssoProblem ? sessionEndedMessage(await endedSessionReason()) : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Digital-Goods Issuing</p>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight">Sign in to the back-office</h1>
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          {ssoProblem ? (
            <Notice className="mb-4" tone="error" testId="sso-error">
              {ssoProblem}
            </Notice>
          ) : null}
          {sso ? <SsoSignIn name={sso.name} callbackUrl={callbackUrl} onlyWay={ssoOnly} /> : null}
          <div className={sso ? "mt-4" : undefined}>
            <SignInForm callbackUrl={callbackUrl} ended={ended} />
          </div>
        </div>
      </div>
    </main>
  );
}
