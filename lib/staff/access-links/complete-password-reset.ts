import "server-only";
import { endAllSessions } from "@/lib/auth/staff-session";
import { accountKey, clearFailures } from "@/lib/auth/throttle";
import { recordAudit } from "@/lib/audit/record";
import { linkRefused, type LinkVisitor } from "./take-access-link";
import type { OpenedSession } from "@/lib/auth/open-session";
import { redeemAccessLink } from "./redeem-access-link";

/**
 * The person sets a new password through an admin's reset link: in the transaction that takes
 * the link, the password is replaced, every session of theirs ended, the account's failed
 * sign-ins forgotten, and a new session opened (first factor "password_reset"): a person with a
 * second factor still proves it next, one whose role must have one and who has none enrols.
 */
export async function completePasswordReset(input: unknown, visitor: LinkVisitor): Promise<OpenedSession> {
  return redeemAccessLink(input, "password_reset", visitor, async (tx, link, passwordHash) => {
    const person = link.staffId ? await tx.staff.findUnique({ where: { id: link.staffId } }) : null;
    // Deactivation revokes a person's links; this is the same rule should one slip through.
    if (!person?.active) throw linkRefused("revoked");
    await tx.staff.update({ where: { id: person.id }, data: { passwordHash } });
    await endAllSessions(tx, person.id, "password_reset");
    await clearFailures(tx, accountKey(person.email));
    await recordAudit(tx, {
      action: "staff.password_reset_completed",
      actor: { staffId: person.id, email: person.email, ...visitor },
      targetId: person.id,
      details: { email: person.email },
    });
    // The version endAllSessions moved on: the new session is of the current one.
    return tx.staff.findUniqueOrThrow({ where: { id: person.id } });
  });
}
