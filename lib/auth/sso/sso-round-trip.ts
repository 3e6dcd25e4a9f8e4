import "server-only";
import { getEnv, ssoConfig } from "@/lib/env";
import { logger } from "@/lib/log";
import { safeCallbackPath } from "../safe-callback";
import type { CookieToSet } from "@/lib/http/redirect-with-cookies";
import { sessionCookie } from "../session-token";
import { finishAuthorization, isIdpRefusal, startAuthorization } from "./oidc-client";
import { FLOW_COOKIE_PATH, FLOW_MAX_AGE_S, flowCookieName, openFlow, sealFlow, type SsoPurpose } from "./flow-cookie";
import { stepUpWithSso } from "./step-up-with-sso";
import { signInWithSso } from "./sign-in-with-sso";
import type { SsoRefusal } from "./rules";

/**
 * The two legs of the browser's round trip through the IdP, as plain answers (where to send
 * the browser, which cookies to set) that the route handlers under app/api/auth/sso turn into
 * responses. Whatever goes wrong, the browser lands on the sign-in page with a reason it can
 * read (`?sso=<reason>`, SSO_MESSAGES); nothing of the IdP's answer, tokens or secret is shown
 * or logged.
 */
export type SsoFailure = SsoRefusal | "expired" | "cancelled" | "failed" | "unavailable" | "not_configured";

export type RoundTripAnswer = { location: string; cookies: CookieToSet[] };

/** How recent the IdP's authentication must be for a step-up (it was asked for max_age=0; clocks and the redirect take a moment). */
const STEP_UP_MAX_AGE_S = 120;

function signInPage(reason: SsoFailure, callbackUrl?: string): string {
  const params = new URLSearchParams({ sso: reason });
  if (callbackUrl && callbackUrl !== "/") params.set("callbackUrl", callbackUrl);
  return absolute(`/signin?${params}`);
}

function absolute(path: string): string {
  return new URL(path, getEnv().APP_URL).toString();
}

function flowCookie(value: string, maxAge: number): CookieToSet {
  const secure = flowCookieName().startsWith("__Secure-");
  return { name: flowCookieName(), value, options: { httpOnly: true, sameSite: "lax", path: FLOW_COOKIE_PATH, secure, maxAge } };
}

/**
 * Leg one: to the IdP's authorization endpoint, the flow sealed in a cookie. A step-up asks the
 * IdP to authenticate the person again (prompt=login, max_age=0) whatever session it holds.
 */
export async function beginSsoSignIn(callbackUrlParam: unknown, purpose: SsoPurpose = "sign_in"): Promise<RoundTripAnswer> {
  const callbackUrl = safeCallbackPath(callbackUrlParam, getEnv().APP_URL);
  const sso = ssoConfig();
  if (!sso) return { location: signInPage("not_configured", callbackUrl), cookies: [] };
  try {
    const { url, flow } = await startAuthorization(sso, { reauthenticate: purpose === "step_up" });
    const sealed = await sealFlow({ ...flow, callbackUrl, purpose });
    return { location: url.toString(), cookies: [flowCookie(sealed, FLOW_MAX_AGE_S)] };
  } catch (error) {
    logger.warn("SSO: the IdP's discovery failed", describe(error));
    return { location: signInPage("unavailable", callbackUrl), cookies: [] };
  }
}

/**
 * Leg two: the IdP's answer (the callback's query) checked against the sealed flow, the code
 * exchanged, the ID token verified, the person matched and a session opened; then on to the
 * sign-in step the session still owes (/signin/verify passes straight on when it owes none).
 */
export async function completeSsoSignIn(
  query: URLSearchParams,
  sealedFlow: string | undefined,
  from: { ip: string | null; userAgent: string | null; sessionId?: string | null },
): Promise<RoundTripAnswer> {
  const spent = flowCookie("", 0);
  const sso = ssoConfig();
  if (!sso) return { location: signInPage("not_configured"), cookies: [spent] };
  const flow = await openFlow(sealedFlow);
  if (!flow) return { location: signInPage("expired"), cookies: [spent] };
  const stepUp = flow.purpose === "step_up";
  let claims: Record<string, unknown>;
  try {
    claims = await finishAuthorization(sso, query, flow, stepUp ? { maxAgeSeconds: STEP_UP_MAX_AGE_S } : {});
  } catch (error) {
    // A step-up that fails goes back to its page, still signed in; the action asks again.
    if (stepUp) return { location: absolute(flow.callbackUrl), cookies: [spent] };
    if (isIdpRefusal(error)) return { location: signInPage("cancelled", flow.callbackUrl), cookies: [spent] };
    logger.warn("SSO: the IdP's answer did not check out", describe(error));
    return { location: signInPage("failed", flow.callbackUrl), cookies: [spent] };
  }
  if (stepUp) {
    await stepUpWithSso(from.sessionId ?? null, claims, from);
    return { location: absolute(flow.callbackUrl), cookies: [spent] };
  }
  const result = await signInWithSso(claims, from);
  if (!result.ok) return { location: signInPage(result.reason, flow.callbackUrl), cookies: [spent] };
  return {
    location: absolute(`/signin/verify?${new URLSearchParams({ callbackUrl: flow.callbackUrl })}`),
    cookies: [spent, await sessionCookie(result)],
  };
}

/** What a log line may say of an openid-client error: its kind and code, never a token or the secret. */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error).slice(0, 200) };
  const code = (error as { code?: unknown }).code;
  const oauthError = (error as { error?: unknown }).error;
  return {
    error: error.name,
    code: typeof code === "string" ? code : undefined,
    oauthError: typeof oauthError === "string" ? oauthError : undefined,
    message: error.message.slice(0, 200),
  };
}
