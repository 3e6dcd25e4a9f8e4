import { decode, encode, getToken, type JWT, type JWTDecodeParams } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { getEnv, usesSecureCookies, type Env } from "@/lib/env";
import type { CookieToSet } from "@/lib/http/redirect-with-cookies";
import type { OpenedSession } from "./open-session";

/**
 * The session cookie, made and read in this one module with next-auth's own `encode` and
 * `decode` (next-auth/jwt): a JWE under AUTH_SECRET that names a StaffSession row (`sid`; with
 * `sub`, `name` and `email`). next-auth writes it for a password sign-in through these same
 * functions and cookie settings (`sessionTokenOptions`, used by lib/auth/options.ts); every
 * other first factor (SSO, an invitation or reset link) gets it from `sessionCookie`. Whether
 * the session is alive is the row's business (lib/auth/staff-session.ts), never the cookie's.
 */

/** next-auth's clock tolerance in `decode`; a cookie is kept as verified until its expiry plus this. */
const CLOCK_TOLERANCE_S = 15;
/** Verified cookies kept per secret; past it the oldest leaves first (a cookie is about 500 bytes). */
const MAX_VERIFIED = 2_000;

type Verified = { payload: JWT; untilMs: number };
const verifiedBySecret = new Map<string, Map<string, Verified>>();

/** next-auth's cookie name and options (its defaultCookies), for the session's lifetime. */
function cookieSettings(env: Env) {
  const secure = usesSecureCookies(env);
  return {
    name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
    options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure },
  };
}

/** The `jwt` and `cookies.sessionToken` settings next-auth issues the password's session with. */
export function sessionTokenOptions(env: Env) {
  return { jwt: { encode, decode: decodeSessionToken }, cookies: { sessionToken: cookieSettings(env) } };
}

/**
 * next-auth's `decode`, and an expiry required (it would take a token without one). The gate
 * and the page decode the cookie of every page view, so a verified cookie's payload is kept
 * until its expiry (plus the tolerance) and answered again without decrypting: the cookie's
 * text is its own proof, the same text decrypting to the same payload. Anything that does not
 * decrypt and verify is null, as next-auth's decode failing is "no session".
 */
export async function decodeSessionToken(params: JWTDecodeParams): Promise<JWT | null> {
  const { token, secret, salt = "" } = params;
  if (!token) return null;
  const verified = verifiedFor(typeof secret === "string" ? secret : secret.toString(), salt);
  const known = verified.get(token);
  if (known && Date.now() < known.untilMs) return known.payload;
  if (known) verified.delete(token);
  const payload = await decode(params).catch(() => null);
  if (typeof payload?.exp !== "number") return null; // not ours, tampered, another secret, expired, or no expiry
  const session = Object.freeze(payload); // shared by every later decode of this cookie
  verified.set(token, { payload: session, untilMs: (payload.exp + CLOCK_TOLERANCE_S) * 1000 });
  if (verified.size > MAX_VERIFIED) verified.delete(verified.keys().next().value!);
  return session;
}

function verifiedFor(secret: string, salt: string): Map<string, Verified> {
  const id = `${salt}\u0000${secret}`;
  let verified = verifiedBySecret.get(id);
  if (!verified) verifiedBySecret.set(id, (verified = new Map()));
  return verified;
}

/** The cookie of a session row just opened by SSO or a one-time link (lib/auth/open-session.ts). */
export async function sessionCookie({ staff, sessionId }: Pick<OpenedSession, "staff" | "sessionId">): Promise<CookieToSet> {
  const env = getEnv();
  const maxAge = env.SESSION_MAX_HOURS * 3600;
  const { name, options } = cookieSettings(env);
  const value = await encode({
    token: { sub: staff.id, name: staff.name, email: staff.email, sid: sessionId },
    secret: env.AUTH_SECRET,
    maxAge,
  });
  return { name, value, options: { ...options, maxAge } };
}

/** Sets `sessionCookie` on a cookie store (a route handler's `cookies()`, a response's `cookies`). */
export async function writeSessionCookie(
  store: { set(name: string, value: string, options: CookieToSet["options"]): unknown },
  opened: Pick<OpenedSession, "staff" | "sessionId">,
): Promise<void> {
  const cookie = await sessionCookie(opened);
  store.set(cookie.name, cookie.value, cookie.options);
}

/**
 * The session id the session cookie names, or null (no cookie, or one that does not verify).
 * Read from the cookies alone (a store with `getAll`, as Next's request cookies are): getToken
 * would otherwise take a bearer token from Authorization instead. The one reader, for the
 * request gate (lib/http/gate.ts) and the session of a render or handler (lib/auth/current.ts).
 */
export async function cookieSessionId(cookies: { getAll(): { name: string; value: string }[] }): Promise<string | null> {
  const env = getEnv();
  const req = { headers: new Headers(), cookies } as unknown as NextRequest;
  const token = await getToken({
    req,
    secret: env.AUTH_SECRET,
    secureCookie: usesSecureCookies(env),
    decode: decodeSessionToken,
  });
  return typeof token?.sid === "string" ? token.sid : null;
}
