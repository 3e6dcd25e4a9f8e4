import "server-only";
import { createSecretKey, hkdfSync, type KeyObject } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";
import { z } from "zod";
import { getEnv, usesSecureCookies } from "@/lib/env";
import type { SsoFlow } from "./oidc-client";

/**
 * The state of one SSO round trip (state, nonce, PKCE verifier, where to go after), kept in the
 * browser between the redirect to the IdP and its callback as a JWE (dir + A256GCM, jose) under
 * a key HKDF-derived from AUTH_SECRET for this use only: the browser can neither read the
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

let derived: { secret: string; key: KeyObject } | null = null;
function flowKey(): KeyObject {
  const secret = getEnv().AUTH_SECRET;
  if (derived?.secret !== secret) {
    const key = createSecretKey(Buffer.from(hkdfSync("sha256", secret, "", "Back-office SSO flow", 32)));
    derived = { secret, key };
  }
  return derived.key;
}

export function flowCookieName(): string {
  return usesSecureCookies() ? "__Secure-sso-flow" : "sso-flow";
}

export async function sealFlow(flow: SealedFlow): Promise<string> {
  return new EncryptJWT({ ...flow })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(`${FLOW_MAX_AGE_S}s`)
    .encrypt(flowKey());
}

/** The flow the cookie holds, or null (absent, expired, tampered, another secret). */
export async function openFlow(sealed: string | undefined): Promise<SealedFlow | null> {
  if (!sealed) return null;
  try {
    const { payload } = await jwtDecrypt(sealed, flowKey(), {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: ["A256GCM"],
      requiredClaims: ["exp"],
    });
    const flow = flowSchema.safeParse(payload);
    return flow.success ? flow.data : null;
  } catch {
    return null;
  }
}
