import "server-only";
import { db } from "@/lib/db/client";
import type { Actor } from "./actor";
import { verifyPassword } from "./password";
import { accountKey, recordFailure, takeCounters, THROTTLE_POLICY } from "./throttle";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";

/**
 * The password asked again (step-up of a person with no second factor, which the policy then
 * allows). Failures count towards the account's lock-out (checked and counted in one
 * transaction, lib/auth/throttle.ts); a right password renews the session's proof (`reauthAt`).
 */
export async function confirmPassword(actor: Actor, sessionId: string, password: string): Promise<void> {
  const staff = await db().staff.findUniqueOrThrow({ where: { id: actor.staffId } });
  const passwordOk = await verifyPassword(staff.passwordHash, password);
  const ok = await db().$transaction(async (tx) => {
    const locked = await takeCounters(tx, [accountKey(staff.email)]);
    if (passwordOk && !locked) {
      await tx.staffSession.update({ where: { id: sessionId }, data: { reauthAt: new Date() } });
      await recordAudit(tx, { action: "auth.step_up", actor, targetId: sessionId });
      return true;
    }
    if (!locked) await recordFailure(tx, accountKey(staff.email), THROTTLE_POLICY.account.freeFailures);
    await recordAudit(tx, { action: "auth.step_up_failed", actor, targetId: sessionId, details: { locked: !!locked } });
    return false;
  });
  if (!ok)
    throw new AppError("step_up_failed", "That password is not right, or the account is temporarily locked.", {
      status: 403,
      fieldErrors: { password: ["That password is not right."] },
    });
}
