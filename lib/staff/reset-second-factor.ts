import "server-only";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { endAllSessions } from "@/lib/auth/staff-session";
import { staffIdSchema } from "./schemas";

/**
 * An admin clears another person's second factors and recovery codes (a lost phone) and ends
 * their sessions; they enrol again at their next sign-in if the policy requires it. Never
 * one's own: that would let one stolen admin session drop the factor that guards it.
 */
export async function resetSecondFactor(actor: Actor, staffId: unknown): Promise<{ removed: number }> {
  assertCan(actor, "staff.manage");
  const id = parseInput(staffIdSchema, staffId);
  if (id === actor.staffId)
    throw new AppError("own_second_factor", "Another admin must reset your second factor.", { status: 403 });
  return db().$transaction(async (tx) => {
    const person = await tx.staff.findUnique({ where: { id } });
    if (!person) throw new AppError("not_found", "No such staff member.");
    const removed = await tx.secondFactor.deleteMany({ where: { staffId: id } });
    await tx.recoveryCode.deleteMany({ where: { staffId: id } });
    await endAllSessions(tx, id, "second_factor_reset");
    await recordAudit(tx, {
      action: "second_factor.reset",
      actor,
      targetId: id,
      details: { email: person.email, removed: removed.count },
    });
    return { removed: removed.count };
  });
}
