import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cookieSessionId } from "./session-token";
import { clientAddress, clientUserAgent } from "./client-address";
import { rememberedSession, resolveSession, type LiveSession } from "./staff-session";
import type { PendingStep } from "./open-session";
import { can, type Permission } from "./permissions";
import { noteOnSpan } from "@/lib/telemetry/span-attributes";

/**
 * The signed-in person of the current request, or null (no cookie, or a dead session).
 * Resolved once per request: the layout and the page of one page view both ask, and React's
 * `cache` (scoped to one server render, nothing kept between requests) hands the second the
 * first's answer. Every request still checks the session row; route handlers, outside a
 * render, resolve it on each call.
 */
export const currentSession = cache(async (): Promise<LiveSession | null> => {
  const h = await headers();
  // The cookie read directly, not through getServerSession: that runs next-auth's jwt callback,
  // which checks the row too, and the row is resolved just below anyway.
  const sid = await cookieSessionId(await cookies());
  if (!sid) return null;
  const session = await resolveSession(sid, { ip: clientAddress(h), userAgent: clientUserAgent(h) });
  if (session) noteOnSpan({ "app.role": session.actor.roles.join(",") || "none" });
  return session;
});

/**
 * The session this process found alive a moment ago under the request's cookie, and the guard
 * that the database must still confirm it with (lib/upstream/session-slot.ts), or null.
 */
export async function rememberedCurrentSession() {
  const h = await headers();
  const sid = await cookieSessionId(await cookies());
  return sid ? rememberedSession(sid, { ip: clientAddress(h), userAgent: clientUserAgent(h) }) : null;
}

/** Where a session that still owes a sign-in step is sent (lib/auth/open-session.ts). */
export const PENDING_STEP_PAGES = { second_factor: "/signin/verify", enrolment: "/signin/enrol" } as const;

/**
 * For the sign-in step pages (/signin/verify, /signin/enrol): the session that owes `step`.
 * No session goes to the sign-in form, one that owes the other step to that step's page (the
 * callback kept), and one that owes nothing straight on to `callbackUrl`.
 */
export async function requireSignInStep(step: PendingStep, callbackUrl: string): Promise<LiveSession> {
  const session = await currentSession();
  if (!session) redirect("/signin");
  if (!session.pendingStep) redirect(callbackUrl);
  if (session.pendingStep !== step)
    redirect(`${PENDING_STEP_PAGES[session.pendingStep]}?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  return session;
}

/**
 * For pages: the live session, or a redirect to the sign-in page. A session that still owes
 * a second factor or an enrolment sees nothing else: it is sent to that step.
 */
export async function requirePageSession(permission?: Permission): Promise<LiveSession> {
  const session = await currentSession();
  if (!session) redirect("/signin?expired=1");
  if (session.pendingStep) redirect(PENDING_STEP_PAGES[session.pendingStep]);
  if (permission && !can(session.actor.roles, permission)) redirect("/forbidden");
  return session;
}
