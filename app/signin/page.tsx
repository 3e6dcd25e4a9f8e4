import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentSession } from "@/lib/auth/current";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { getEnv } from "@/lib/env";
import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl, getEnv().APP_URL);
  if (await currentSession()) redirect(callbackUrl);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Digital-Goods Issuing</p>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight">Sign in to the back-office</h1>
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <SignInForm callbackUrl={callbackUrl} expired={params.expired === "1"} />
        </div>
      </div>
    </main>
  );
}
