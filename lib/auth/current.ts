import "server-only";
import { cache } from "react";
import type { NextRequest } from "next/server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getToken } from "next-auth/jwt";
import { decodeSessionToken } from "./decode-session-token";
import { getEnv, usesSecureCookies } from "@/lib/env";
import { clientAddress, clientUserAgent } from "./client-address";
import { resolveSession, type LiveSession } from "./staff-session";
import { can, type Permission } from "./permissions";

/**
 * The signed-in person of the current request, or null (no cookie, or a dead session).
 * Resolved once per request: the layout and the page of one page view both ask, and React's
 * `cache` (scoped to one server render, nothing kept between requests) hands the second the
 * first's answer. Every request still checks the session row; route handlers, outside a
 * render, resolve it on each call.
 */
export const currentSession = cache(async (): Promise<LiveSession | null> => {
  const h = await headers();
  const sid = await cookieSessionId();
  if (!sid) return null;
  return resolveSession(sid, { ip: clientAddress(h), userAgent: clientUserAgent(h) });
});

/**
 * The session id the signed cookie names, read the way the request gate (lib/http/gate.ts) reads it. Not through
 * getServerSession: that runs next-auth's jwt callback, which checks the row too, and the
 * row is resolved just after anyway.
 */
async function cookieSessionId(): Promise<string | null> {
  const env = getEnv();
  // getToken reads only `cookies` (a store with getAll) and `headers` from the request; no
  // headers here, so that a bearer token in Authorization is not accepted instead.
  const req = { headers: new Headers(), cookies: await cookies() } as unknown as NextRequest;
  const token = await getToken({
    req,
    secret: env.AUTH_SECRET,
    secureCookie: usesSecureCookies(env),
    decode: decodeSessionToken,
  });
  return typeof token?.sid === "string" ? token.sid : null;
}

/** For pages: the live session, or a redirect to the sign-in page. */
export async function requirePageSession(permission?: Permission): Promise<LiveSession> {
  const session = await currentSession();
  if (!session) redirect("/signin?expired=1");
  if (permission && !can(session.actor.roles, permission)) redirect("/forbidden");
  return session;
}
