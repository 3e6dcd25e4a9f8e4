import type { Metadata } from "next";
import { requireSignInStep } from "@/lib/auth/current";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { proofMethods } from "@/lib/auth/step-up";
import { getEnv } from "@/lib/env";
import { Providers } from "@/components/providers";
import { SignInFrame } from "@/components/auth/sign-in-frame";
import { SecondStep } from "@/components/auth/second-step";

export const metadata: Metadata = { title: "Confirm sign-in" };

/**
 * Where every first factor hands over (the password form today; SSO later): a session that
 * owes a second factor proves it here, one that owes an enrolment goes on to /signin/enrol,
 * and a complete one goes straight to where it was going.
 */
export default async function VerifyPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl, getEnv().APP_URL);
  const session = await requireSignInStep("second_factor", callbackUrl);
  const methods = await proofMethods(session.actor.staffId);
  return (
    <SignInFrame title="Confirm it is you" intro={<>Signed in as {session.actor.email}. One more step.</>}>
      <Providers>
        <SecondStep methods={methods} callbackUrl={callbackUrl} />
      </Providers>
    </SignInFrame>
  );
}
