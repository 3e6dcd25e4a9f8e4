"use client";

import { useState } from "react";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { callApi, type ApiProblem } from "@/components/api-client";

type WebAuthn = typeof import("@simplewebauthn/browser");

/**
 * The two passkey ceremonies: proving with one (the sign-in's second step, a step-up) and adding
 * one (enrolment). Each asks the server for its options (a challenge kept on the session), then
 * the browser's prompt; the response goes to the caller, which sends it on.
 */
const CEREMONIES = {
  prove: {
    optionsUrl: "/api/session/passkey-options",
    run: (webauthn: WebAuthn, options: unknown) =>
      webauthn.startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON }),
  },
  register: {
    optionsUrl: "/api/account/second-factors/passkey-options",
    run: (webauthn: WebAuthn, options: unknown) =>
      webauthn.startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON }),
  },
} as const;

/**
 * A passkey ceremony in the browser: `start(send)` runs it and hands the response to `send`;
 * `pending` while it runs, `problem` when the server refused the options (a problem document)
 * or the prompt was closed (words).
 */
export function usePasskey(ceremony: keyof typeof CEREMONIES) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | string | null>(null);

  async function start(send: (response: unknown) => void) {
    setProblem(null);
    setPending(true);
    const webauthn = loadWebAuthn();
    try {
      const options = await callApi<unknown>("POST", CEREMONIES[ceremony].optionsUrl, {});
      if (!options.ok) return setProblem(options.problem);
      let response: unknown;
      try {
        response = await CEREMONIES[ceremony].run(await webauthn, options.data);
      } catch {
        return setProblem("The passkey prompt was closed or did not answer. Try again.");
      }
      send(response);
    } finally {
      setPending(false);
    }
  }

  return { start, pending, problem, clearProblem: () => setProblem(null) };
}

/**
 * @simplewebauthn/browser, loaded when a ceremony starts (in parallel with the server's options)
 * instead of with every page: the shell holds the step-up dialog
 * (docs/decisions/0012-first-load-only-what-is-needed.md).
 */
function loadWebAuthn(): Promise<WebAuthn> {
  const loading = import("@simplewebauthn/browser");
  loading.catch(() => {}); // a failed load is reported where it is awaited, not as an unhandled rejection
  return loading;
}
