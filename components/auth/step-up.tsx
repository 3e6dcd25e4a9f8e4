"use client";

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from "react";
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
  // What had focus before the prompt, to give it back: the control that asked is often disabled
  // while its call waits (and so loses focus without a focusin elsewhere), hence tracked, not read at opening.
  const lastFocused = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && !event.target.closest("dialog")) lastFocused.current = event.target;
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);
  const ask = useCallback<AskStepUp>(
    (methods, confirming) => new Promise((resolve) => setRequest({ methods, confirming, resolve })),
    [],
  );
  const finish = (ok: boolean) => {
    request?.resolve(ok);
    setRequest(null);
    if (lastFocused.current) giveFocusBack(lastFocused.current);
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
 * behind it) and sits at the bottom of the screen, leaving the top of the page in view. A modal
 * <dialog>: focus moves in and stays in (the page behind is inert), Escape cancels, and focus
 * goes back to what opened it (StepUpProvider).
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
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    return () => element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      data-testid="step-up-dialog"
      onCancel={(event) => {
        event.preventDefault();
        onDone(false);
      }}
      onKeyDown={keepTabInside}
      className="mx-auto mt-auto mb-4 w-[calc(100%-2rem)] max-w-md rounded-lg border-0 bg-white p-5 shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/20"
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
    </dialog>
  );
}

/** Tab from the last control goes to the first, Shift+Tab from the first to the last (a modal dialog alone lets focus out to the browser). */
function keepTabInside(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const controls = [
    ...event.currentTarget.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, [tabindex]"),
  ].filter((el) => !el.matches(":disabled, [tabindex='-1']") && el.offsetParent !== null);
  const [first, last] = [controls[0], controls.at(-1)];
  if (!first || !last) return;
  if (event.shiftKey ? document.activeElement === first : document.activeElement === last) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}

/** Focus back to `element` once it can take it: the call it made settles, and re-enables it, within a few frames. */
function giveFocusBack(element: HTMLElement, frames = 20) {
  requestAnimationFrame(() => {
    if (!element.isConnected) return;
    element.focus();
    if (document.activeElement !== element && frames > 0) giveFocusBack(element, frames - 1);
  });
}
