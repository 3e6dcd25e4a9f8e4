import "server-only";
import { cookies } from "next/headers";
import { encode } from "next-auth/jwt";
import { getEnv, usesSecureCookies } from "@/lib/env";

/**
 * The session cookie for a session row opened outside next-auth's Credentials provider (single
 * sign-on, a one-time link's use), made exactly as next-auth v4 makes its own: its `encode` (a
 * JWE under AUTH_SECRET) of a token that names the row (`sid`; with `sub`, `name` and `email`,
 * which is all the app reads), under next-auth's cookie name and options (core/lib/cookie.ts:
 * defaultCookies), for the session's lifetime. Everything that reads the cookie (the gate,
 * pages, next-auth's own routes and sign-out) therefore reads this one the same way.
 */
export async function sessionCookie(session: { id: string; staffId: string; name: string; email: string }) {
  const env = getEnv();
  const maxAge = env.SESSION_MAX_HOURS * 3600;
  const secure = usesSecureCookies(env);
  const value = await encode({
    token: { sub: session.staffId, name: session.name, email: session.email, sid: session.id },
    secret: env.AUTH_SECRET,
    maxAge,
  });
  return {
    name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
    value,
    options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure, maxAge },
  };
}

/** Sets `sessionCookie` on a route handler's answer, after the session row is committed. */
export async function setSessionCookie(staff: { id: string; name: string; email: string }, sessionId: string): Promise<void> {
  const cookie = await sessionCookie({ id: sessionId, staffId: staff.id, name: staff.name, email: staff.email });
  (await cookies()).set(cookie.name, cookie.value, cookie.options);
}
