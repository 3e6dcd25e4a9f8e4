import "server-only";
import { db } from "@/lib/db/client";
import { hashPassword } from "@/lib/auth/password";
import { openSession } from "@/lib/auth/second-factor/open-session";
import { endAllSessions } from "@/lib/auth/staff-session";
import { accountKey, clearFailures } from "@/lib/auth/throttle";
import { recordAudit } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { useAccessLinkSchema } from "../schemas";
import { hashLinkToken } from "./link-rules";
import { assertLinkLive, linkRefused, refusalNow, takeLink, type LinkVisitor } from "./take-access-link";
import type { OpenedBySignInLink } from "./accept-invitation";

/**
 * The person sets a new password through an admin's reset link: in one transaction the link is
 * taken (once), the password replaced, every session of theirs ended (one opened between the
 * link's issue and now, too), the account's failed sign-ins forgotten, and a new session opened
 * through `openSession` (first factor "password_reset"): a person with a second factor still
 * proves it next, one whose role must have one and who has none enrols.
 */
export async function completePasswordReset(input: unknown, visitor: LinkVisitor): Promise<OpenedBySignInLink> {
  const { token, password } = parseInput(useAccessLinkSchema, input);
  const tokenHash = hashLinkToken(token);
  await assertLinkLive(tokenHash, "password_reset", visitor);
  const passwordHash = await hashPassword(password);
  const opened = await db().$transaction(async (tx) => {
    const link = await takeLink(tx, tokenHash, "password_reset");
    if (!link) return null;
    const person = link.staffId ? await tx.staff.findUnique({ where: { id: link.staffId } }) : null;
    // Deactivation revokes a person's links; this is the same rule should one slip through.
    if (!person?.active) throw linkRefused("revoked");
    await tx.staff.update({ where: { id: person.id }, data: { passwordHash } });
    await endAllSessions(tx, person.id, "password_reset");
    await clearFailures(tx, accountKey(person.email));
    const staff = await tx.staff.findUniqueOrThrow({ where: { id: person.id } });
    const session = await openSession(tx, staff, { ...visitor, firstFactor: "password_reset" });
    const actor = { staffId: staff.id, email: staff.email, ...visitor };
    await recordAudit(tx, {
      action: "staff.password_reset_completed",
      actor,
      targetId: staff.id,
      details: { email: staff.email },
    });
    await recordAudit(tx, { action: "auth.sign_in", actor, targetId: session.id });
    return { staff, sessionId: session.id, pendingStep: session.pendingStep };
  });
  if (!opened) throw await refusalNow(tokenHash, "password_reset");
  const { staff } = opened;
  return {
    staff: { id: staff.id, email: staff.email, name: staff.name },
    sessionId: opened.sessionId,
    pendingStep: opened.pendingStep,
  };
}
