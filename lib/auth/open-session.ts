import "server-only";
import type { Tx } from "@/lib/db/client";
import { mustHaveSecondFactor, readSecondFactorPolicy } from "./second-factor/policy";
import { idpProvedSecondFactor } from "./sso/rules";

/** The sign-in step a session still owes before anything else is allowed. */
export type PendingStep = "second_factor" | "enrolment";

/** A session just opened and the person it is for: what its cookie is made from (lib/auth/session-token.ts). */
export type OpenedSession = {
  staff: { id: string; name: string; email: string };
  sessionId: string;
  pendingStep: PendingStep | null;
};

/**
 * How the person proved who they are first: their password, the IdP of single sign-on
 * (lib/auth/sso), or a one-time link an admin gave them with the password they just set through
 * it (an invitation, a reset).
 */
export type FirstFactor = "password" | "sso" | "invitation" | "password_reset";

/**
 * What a session opened now still owes: a second factor when the person has one, enrolment
 * when the policy says their roles must have one and they have none, nothing otherwise.
 */
export async function stepOwed(tx: Tx, staff: { id: string; roles: readonly string[] }): Promise<PendingStep | null> {
  const factors = await tx.secondFactor.count({ where: { staffId: staff.id, confirmedAt: { not: null } } });
  if (factors > 0) return "second_factor";
  return mustHaveSecondFactor(staff.roles, await readSecondFactorPolicy(tx)) ? "enrolment" : null;
}

/**
 * The one way a session row is opened, whatever the first factor was (a password, SSO, an
 * invitation or reset link). Its cookie is made by lib/auth/session-token.ts: through
 * next-auth's Credentials provider for a password, by `sessionCookie` for the others. The
 * session carries the step it still owes (`pendingStep`); pages send it to /signin/verify or
 * /signin/enrol and API routes refuse it (403) until that step clears it.
 *
 * The one place that lets an IdP's own second factor stand in for ours: an SSO sign-in whose
 * ID token's `amr` names one (lib/auth/sso/rules.ts, IDP_SECOND_FACTOR_METHODS) owes nothing
 * more; one with a password alone (or no `amr`) owes our second factor or enrolment, as a
 * password sign-in does.
 */
export async function openSession(
  tx: Tx,
  staff: { id: string; name: string; email: string; roles: readonly string[]; sessionVersion: number },
  from: { ip: string | null; userAgent: string | null; firstFactor: FirstFactor; amr?: readonly string[] },
): Promise<OpenedSession> {
  const idpSecondFactor = from.firstFactor === "sso" && idpProvedSecondFactor(from.amr);
  const pendingStep = idpSecondFactor ? null : await stepOwed(tx, staff);
  const session = await tx.staffSession.create({
    data: {
      staffId: staff.id,
      sessionVersion: staff.sessionVersion,
      ip: from.ip,
      userAgent: from.userAgent?.slice(0, 512),
      firstFactor: from.firstFactor,
      pendingStep,
    },
  });
  return { staff: { id: staff.id, name: staff.name, email: staff.email }, sessionId: session.id, pendingStep };
}
