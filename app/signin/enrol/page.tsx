import type { Metadata } from "next";
import { requireSignInStep } from "@/lib/auth/current";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { getEnv } from "@/lib/env";
import { Providers } from "@/components/providers";
import { SignInFrame } from "@/components/auth/sign-in-frame";
import { EnrolSecondFactor } from "@/components/auth/enrol-second-factor";
import { SignOutButton } from "@/components/shell/sign-out-button";

export const metadata: Metadata = { title: "Set up a second factor" };

/**
 * A person whose roles must have a second factor and who has none lands here after the first
 * factor (or, later, after accepting an invitation) and can do nothing else until one is set up.
 */
export default async function EnrolPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl, getEnv().APP_URL);
  await requireSignInStep("enrolment", callbackUrl);
  return (
    <SignInFrame
      wide
      title="Set up a second factor"
      intro="This workspace asks people in your role for a second factor at every sign-in. Set one up to continue."
    >
      <Providers>
        <EnrolSecondFactor doneHref={callbackUrl} />
      </Providers>
      <div className="mt-4 border-t border-slate-200 pt-3">
        <SignOutButton />
      </div>
    </SignInFrame>
  );
}
