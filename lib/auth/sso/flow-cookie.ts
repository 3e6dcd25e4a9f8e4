import "server-only";
import { z } from "zod";
import { deriveKey } from "@/lib/crypto/derive-key";
import { openToken, sealToken } from "@/lib/crypto/sealed-token";
import { getEnv, usesSecureCookies } from "@/lib/env";
import type { SsoFlow } from "./oidc-client";

/**
 * The state of one SSO round trip (state, nonce, PKCE verifier, where to go after), kept in the
 * browser between the redirect to the IdP and its callback as a sealed token (lib/crypto) under
 * a key derived from AUTH_SECRET for this use only: the browser can neither read the
 * verifier nor forge a flow. HttpOnly, SameSite=Lax (the IdP's redirect back is a top-level GET,
 * which carries it), scoped to the callback's path, ten minutes.
 */
export const FLOW_MAX_AGE_S = 600;
export const FLOW_COOKIE_PATH = "/api/auth/sso";

const flowSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(1),
  callbackUrl: z.string().min(1),
  purpose: z.enum(["sign_in", "step_up"]),
});
/** `step_up`: a person already signed in by SSO proves it is them again (lib/auth/sso/step-up-with-sso.ts). */
export type SsoPurpose = "sign_in" | "step_up";
export type SealedFlow = SsoFlow & { callbackUrl: string; purpose: SsoPurpose };

function flowKey(): Buffer {
  return deriveKey(getEnv().AUTH_SECRET, "ssoFlow");
}

export function flowCookieName(): string {
  return usesSecureCookies() ? "__Secure-sso-flow" : "sso-flow";
}

export async function sealFlow(flow: SealedFlow): Promise<string> {
  return sealToken({ ...flow }, flowKey(), FLOW_MAX_AGE_S);
}

/** The flow the cookie holds, or null (absent, expired, tampered, another secret). */
export async function openFlow(sealed: string | undefined): Promise<SealedFlow | null> {
  if (!sealed) return null;
  const flow = flowSchema.safeParse(await openToken(sealed, flowKey()));
  return flow.success ? flow.data : null;
}
