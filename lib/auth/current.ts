import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { clientAddress, clientUserAgent } from "@/lib/http/client-address";
import { authOptions } from "./options";
import { resolveSession, type LiveSession } from "./staff-session";
import { can, type Permission } from "./permissions";

/** The signed-in person of the current request, or null (no cookie, or a dead session). */
export async function currentSession(): Promise<LiveSession | null> {
  const jwtSession = await getServerSession(authOptions());
  if (!jwtSession?.sid) return null;
  const h = await headers();
  return resolveSession(jwtSession.sid, { ip: clientAddress(h), userAgent: clientUserAgent(h) });
}

/** For pages: the live session, or a redirect to the sign-in page. */
export async function requirePageSession(permission?: Permission): Promise<LiveSession> {
  const session = await currentSession();
  if (!session) redirect("/signin?expired=1");
  if (permission && !can(session.actor.roles, permission)) redirect("/forbidden");
  return session;
}
