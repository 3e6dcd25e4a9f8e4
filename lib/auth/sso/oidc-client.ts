import "server-only";
import * as oidc from "openid-client";
import { ssoIssuerAllowed, type SsoConfig } from "@/lib/env";

/**
 * OpenID Connect through openid-client (v6): discovery, the authorization code flow with PKCE
 * (S256), state and nonce, the ID token's signature checked against the issuer's JWKS (fetched
 * and kept by openid-client), its issuer, audience, expiry and nonce. The client authenticates
 * to the token endpoint with client_secret_basic, OpenID Connect's default, which Google,
 * Entra ID and Okta accept; the secret goes nowhere else.
 */

/** What the browser's round trip must bring back: kept in the sealed flow cookie (flow-cookie.ts). */
export type SsoFlow = { state: string; nonce: string; verifier: string };

const DISCOVERY_TIMEOUT_S = 10;
/** A failed discovery is tried again on the next sign-in, not kept. */
let discovered: { key: string; config: Promise<oidc.Configuration> } | null = null;

function configuration(sso: SsoConfig): Promise<oidc.Configuration> {
  const key = `${sso.issuer}\u0000${sso.clientId}\u0000${sso.clientSecret}`;
  if (discovered?.key === key) return discovered.config;
  // http is accepted only for an issuer on loopback (the tests' provider); the env rule says so too.
  const insecure = new URL(sso.issuer).protocol === "http:" && ssoIssuerAllowed(sso.issuer);
  const config = oidc
    .discovery(new URL(sso.issuer), sso.clientId, undefined, oidc.ClientSecretBasic(sso.clientSecret), {
      timeout: DISCOVERY_TIMEOUT_S,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    })
    .catch((error: unknown) => {
      discovered = null;
      throw error;
    });
  discovered = { key, config };
  return config;
}

/** The IdP's authorization URL for a new sign-in, and the checks its answer must pass. */
export async function startAuthorization(
  sso: SsoConfig,
  options: { reauthenticate?: boolean } = {},
): Promise<{ url: URL; flow: SsoFlow }> {
  const config = await configuration(sso);
  const flow: SsoFlow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: sso.redirectUri,
    scope: "openid email profile",
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
    ...(options.reauthenticate ? { prompt: "login", max_age: "0" } : {}),
  });
  return { url, flow };
}

/**
 * Exchanges the code of the IdP's answer (the callback's query) and returns the verified ID
 * token's claims, completed from the userinfo endpoint when the token carries no email (its
 * subject must be the token's). Throws openid-client's errors for anything that does not check
 * out, and AuthorizationResponseError when the IdP answered with an error (the person cancelled).
 */
export async function finishAuthorization(
  sso: SsoConfig,
  query: URLSearchParams,
  flow: SsoFlow,
  options: { maxAgeSeconds?: number } = {},
): Promise<Record<string, unknown>> {
  const config = await configuration(sso);
  const currentUrl = new URL(sso.redirectUri);
  currentUrl.search = query.toString();
  const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
    // A re-authentication: the ID token's auth_time must be this recent (an IdP that ignored prompt=login fails here).
    ...(options.maxAgeSeconds !== undefined ? { maxAge: options.maxAgeSeconds } : {}),
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("The IdP issued no ID token.");
  if (typeof claims.email === "string") return { ...claims };
  const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  // The ID token's own claims (sub, amr, …) win over what userinfo adds.
  return { ...info, ...claims };
}

/** An IdP's answer that is an error (access_denied when the person cancels), not a failure of ours. */
export function isIdpRefusal(error: unknown): boolean {
  return error instanceof oidc.AuthorizationResponseError;
}
