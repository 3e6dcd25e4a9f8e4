import "server-only";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { logger } from "@/lib/log";
import { resolveSession } from "../staff-session";
import { amrOf, verifiedEmail } from "./rules";

/**
 * A step-up by single sign-on: the IdP authenticated the person again (its ID token verified,
 * auth_time recent), and the verified email is the signed-in person's own. Renews the session's
 * proof (`reauthAt`, lib/auth/step-up.ts) and audits it; anything else changes nothing.
 */
export async function stepUpWithSso(
  sessionId: string | null,
  claims: Record<string, unknown>,
  from: { ip: string | null; userAgent: string | null },
): Promise<boolean> {
  const session = sessionId ? await resolveSession(sessionId, from) : null;
  if (!session || session.pendingStep) return false;
  const verified = verifiedEmail(claims);
  if (!verified.ok || verified.email !== session.actor.email) {
    logger.warn("SSO: a step-up came back as someone else, or unverified", { sessionId: session.sessionId });
    return false;
  }
  const amr = amrOf(claims.amr);
  await db().$transaction(async (tx) => {
    await tx.staffSession.update({ where: { id: session.sessionId }, data: { reauthAt: new Date() } });
    await recordAudit(tx, { action: "auth.sso_step_up", actor: session.actor, targetId: session.sessionId, details: { amr } });
  });
  return true;
}
