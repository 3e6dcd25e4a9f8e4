import "server-only";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { logger } from "@/lib/log";
import { resolveSession } from "../staff-session";
import { stepOwed } from "../open-session";
import { amrOf, idpProvedSecondFactor, verifiedEmail } from "./rules";

/**
 * A step-up by single sign-on: the IdP authenticated the person again (its ID token verified,
 * auth_time recent), and the verified email is the signed-in person's own. Renews the session's
 * proof (`reauthAt`, lib/auth/step-up.ts) and audits it; anything else changes nothing.
 *
 * A step-up proves at least what a sign-in of this person needs: when that is a second factor
 * (they have one of ours, or the policy requires one), the IdP's `amr` must name one; a password
 * at the IdP alone renews nothing, and the next sensitive action asks for our factor.
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
  return db().$transaction(async (tx) => {
    const owed = await stepOwed(tx, { id: session.actor.staffId, roles: session.actor.roles });
    if (owed && !idpProvedSecondFactor(amr)) {
      logger.warn("SSO: a step-up without a second factor at the IdP, for a person who needs one", {
        sessionId: session.sessionId,
        amr,
      });
      return false;
    }
    await tx.staffSession.update({ where: { id: session.sessionId }, data: { reauthAt: new Date() } });
    await recordAudit(tx, { action: "auth.sso_step_up", actor: session.actor, targetId: session.sessionId, details: { amr } });
    return true;
  });
}
