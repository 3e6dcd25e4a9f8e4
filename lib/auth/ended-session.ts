import "server-only";
import { cookies } from "next/headers";
import { db } from "@/lib/db/client";
import { cookieSessionId } from "./session-token";

/** Why the session this browser's cookie names ended (its recorded reason), or null: none, or still alive. */
export async function endedSessionReason(): Promise<string | null> {
  const sid = await cookieSessionId(await cookies());
  if (!sid) return null;
  const row = await db().staffSession.findUnique({ where: { id: sid }, select: { endedAt: true, endReason: true } });
  return row?.endedAt ? row.endReason : null;
}
