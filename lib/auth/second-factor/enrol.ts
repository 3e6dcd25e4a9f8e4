import "server-only";
import type { Tx } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import type { LiveSession } from "@/lib/auth/staff-session";
import { issueRecoveryCodes } from "./recovery-code-store";
import type { SecondFactorKind } from "./kinds";

/** What enrolment hands back: recovery codes with the first factor only (shown once). */
export type EnrolResult = { factorId: string; recoveryCodes: string[] | null };

/**
 * Adding a second factor (each kind's `enrol` hooks, ./methods.ts, end here). An enrolling
 * session (pendingStep "enrolment", sent here by the policy) may do nothing else; once its first
 * factor is confirmed the session owes nothing more. A complete session adds factors from
 * Account security. Both steps need a fresh proof (lib/auth/step-up.ts; the routes ask for it
 * too), and a factor added does not renew that proof: it proves the person holds the new factor,
 * not that they are who signed in, so a stale session cannot make itself fresh by adding one.
 *
 * Called in the transaction that confirmed the factor: audits it, issues recovery codes with the
 * person's first factor (or when none is left unused), and clears the enrolment step.
 */
export async function keepEnrolledFactor(
  tx: Tx,
  session: LiveSession,
  factor: { id: string; kind: SecondFactorKind; name: string },
): Promise<EnrolResult> {
  const { actor } = session;
  await recordAudit(tx, {
    action: "second_factor.enrol",
    actor,
    targetId: actor.staffId,
    details: { kind: factor.kind, name: factor.name },
  });
  const others = await tx.secondFactor.count({
    where: { staffId: actor.staffId, confirmedAt: { not: null }, id: { not: factor.id } },
  });
  const unused = await tx.recoveryCode.count({ where: { staffId: actor.staffId, usedAt: null } });
  const recoveryCodes = others === 0 || unused === 0 ? await issueRecoveryCodes(tx, actor) : null;
  if (session.pendingStep === "enrolment")
    await tx.staffSession.update({ where: { id: session.sessionId }, data: { pendingStep: null } });
  return { factorId: factor.id, recoveryCodes };
}
