import "server-only";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/auth/actor";
import { verifyPassword } from "@/lib/auth/password";
import { accountKey, lockedUntil, recordFailure, THROTTLE_POLICY } from "@/lib/auth/throttle";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";

export const STEP_UP_WINDOW_MS = 5 * 60_000;

export type StepUpSession = { sessionId: string; reauthAt: Date };

/**
 * Sensitive actions need a password entered in the last five minutes. A password given
 * now is checked (failures count towards the account's lock-out) and renews the window.
 */
export async function confirmStepUp(actor: Actor, session: StepUpSession, password: string | undefined): Promise<void> {
  if (password === undefined || password === "") {
    if (Date.now() - session.reauthAt.getTime() <= STEP_UP_WINDOW_MS) return;
    throw new AppError("step_up_required", "Confirm your password to continue.", {
      status: 403,
      fieldErrors: { password: ["Enter your password."] },
    });
  }
  const staff = await db().staff.findUniqueOrThrow({ where: { id: actor.staffId } });
  const locked = await lockedUntil(db(), [accountKey(staff.email)]);
  const ok = !locked && (await verifyPassword(staff.passwordHash, password));
  await db().$transaction(async (tx) => {
    if (ok) {
      await tx.staffSession.update({ where: { id: session.sessionId }, data: { reauthAt: new Date() } });
      await recordAudit(tx, { action: "auth.step_up", actor, targetId: session.sessionId });
      return;
    }
    await recordFailure(tx, accountKey(staff.email), THROTTLE_POLICY.account.freeFailures);
    await recordAudit(tx, {
      action: "auth.step_up_failed",
      actor,
      targetId: session.sessionId,
      details: { locked: !!locked },
    });
  });
  if (!ok)
    throw new AppError("step_up_failed", "That password is not right, or the account is temporarily locked.", {
      status: 403,
      fieldErrors: { password: ["That password is not right."] },
    });
}
