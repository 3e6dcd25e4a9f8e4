import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { hashPassword } from "@/lib/auth/password";
import { endAllSessions } from "@/lib/auth/staff-session";
import { recordAudit } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { resetPasswordSchema, staffIdSchema } from "./schemas";
import { accountKey, clearFailures } from "@/lib/auth/throttle";

/** Sets a new password chosen by an admin; every session of that person ends at once. */
export async function resetPassword(actor: Actor, staffId: unknown, input: unknown): Promise<void> {
  assertCan(actor, "staff.manage");
  const id = parseInput(staffIdSchema, staffId);
  const { password } = parseInput(resetPasswordSchema, input);
  const passwordHash = await hashPassword(password);
  await db().$transaction(async (tx) => {
    const staff = await tx.staff.findUnique({ where: { id } });
    if (!staff) throw new AppError("not_found", "No such staff member.");
    await tx.staff.update({ where: { id }, data: { passwordHash } });
    await endAllSessions(tx, id, "password_reset");
    await clearFailures(tx, accountKey(staff.email));
    await recordAudit(tx, {
      action: "staff.reset_password",
      actor,
      targetId: id,
      details: { email: staff.email },
    });
  });
}
