import "server-only";
import { cookies } from "next/headers";
import { encode } from "next-auth/jwt";
import { getEnv, usesSecureCookies } from "@/lib/env";

/**
 * Issues the session cookie for a session row opened outside next-auth's Credentials provider (a
 * one-time link's use; SSO later), exactly as next-auth issues it: its JWE of the same token
 * (`sub`, `name`, `email` and the row's id, `sid`, which is all the app reads), under its cookie
 * name and options. For a route handler, after the row is committed.
 */
export async function setSessionCookie(staff: { id: string; name: string; email: string }, sessionId: string): Promise<void> {
  const env = getEnv();
  const secure = usesSecureCookies(env);
  const maxAge = env.SESSION_MAX_HOURS * 3600;
  const value = await encode({
    token: { sub: staff.id, name: staff.name, email: staff.email, sid: sessionId },
    secret: env.AUTH_SECRET,
    maxAge,
  });
  // next-auth v4's own name and options for the session token (core/lib/cookie.ts: defaultCookies).
  (await cookies()).set(secure ? "__Secure-next-auth.session-token" : "next-auth.session-token", value, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    expires: new Date(Date.now() + maxAge * 1000),
  });
}
