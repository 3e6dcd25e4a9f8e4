"use client";

import type { ProofMethod } from "@/lib/auth/proof-method";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { ProveForm } from "./prove-form";

/** The sign-in's second step: a code or a passkey, then on to where the person was going. */
export function SecondStep({ methods, callbackUrl }: { methods: ProofMethod[]; callbackUrl: string }) {
  return (
    <div className="space-y-4">
      <ProveForm
        methods={methods}
        submitLabel="Verify"
        // A full page load: the session is complete now, and every page must see it so.
        onProved={() => window.location.assign(callbackUrl)}
      />
      <p className="text-xs text-slate-500">Lost your phone and your recovery codes? An admin can reset your second factor.</p>
      <div className="border-t border-slate-200 pt-3">
        <SignOutButton />
      </div>
    </div>
  );
}
