"use client";

import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { ProofMethod } from "@/lib/auth/proof-method";
import { Button } from "@/components/ui/button";
import { ProveForm } from "./prove-form";

/** `confirming`: what the person is about to do, in words with its amount ("Approve the order of …"). */
type AskStepUp = (methods: readonly ProofMethod[], confirming?: string) => Promise<boolean>;

const StepUpContext = createContext<AskStepUp | null>(null);

/** The step-up prompt's opener, or null outside a StepUpProvider (a call then fails as refused). */
export function useStepUp(): AskStepUp | null {
  return useContext(StepUpContext);
}

/**
 * One prompt for every sensitive action: a call refused with 403 `step_up_required`
 * (lib/auth/step-up.ts) opens it through useApiMutation; once the person has proved it is them
 * (their second factor, or their password when they have none), the call is sent again.
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<{
    methods: readonly ProofMethod[];
    confirming?: string;
    resolve: (ok: boolean) => void;
  } | null>(null);
  const ask = useCallback<AskStepUp>(
    (methods, confirming) => new Promise((resolve) => setRequest({ methods, confirming, resolve })),
    [],
  );
  const finish = (ok: boolean) => {
    request?.resolve(ok);
    setRequest(null);
  };
  return (
    <StepUpContext.Provider value={ask}>
      {children}
      {request ? <StepUpDialog methods={request.methods} confirming={request.confirming} onDone={finish} /> : null}
    </StepUpContext.Provider>
  );
}

/**
 * Says what is being confirmed (with its amount, so nothing the person decided on is hidden
 * behind it) and sits at the bottom of the screen, leaving the top of the page in view.
 */
function StepUpDialog({
  methods,
  confirming,
  onDone,
}: {
  methods: readonly ProofMethod[];
  confirming?: string;
  onDone: (ok: boolean) => void;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && onDone(false);
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onDone]);
  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-slate-900/20 p-4">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="step-up-dialog"
        className="w-full max-w-md rounded-lg bg-white p-5 shadow-xl ring-1 ring-slate-200"
      >
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          Confirm it is you
        </h2>
        {confirming ? (
          <p
            className="mt-2 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-900 ring-1 ring-slate-200"
            data-testid="step-up-confirming"
          >
            <span className="font-medium">You are confirming: </span>
            {confirming}
          </p>
        ) : null}
        <p className="mt-2 mb-4 text-sm text-slate-600">
          {methods.includes("password")
            ? "This action needs your password again."
            : methods.includes("sso")
              ? "This action needs you to sign in with single sign-on again: it has been a few minutes since you last did."
              : "This action needs your second factor again: it has been a few minutes since you last gave it."}
        </p>
        <ProveForm methods={methods} onProved={() => onDone(true)} submitLabel="Confirm and continue" />
        <Button type="button" variant="ghost" className="mt-2 w-full" onClick={() => onDone(false)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
