import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password";
import { openSession, type PendingStep } from "@/lib/auth/second-factor/open-session";
import { recordAudit } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { useAccessLinkSchema } from "../schemas";
import { hashLinkToken } from "./link-rules";
import { assertLinkLive, refusalNow, takeLink, type LinkVisitor } from "./take-access-link";

export type OpenedBySignInLink = {
  staff: { id: string; email: string; name: string };
  sessionId: string;
  pendingStep: PendingStep | null;
};

const TAKEN = "An account with this email address already exists. Sign in, or ask an admin for help.";

/**
 * The invitee sets a password through the invitation's one-time link: in one transaction the
 * link is taken (once), the account is created with the invitation's email, name and roles, and
 * a session is opened through `openSession` (first factor "invitation"), so a role the policy
 * covers is sent to enrol a second factor before anything else. The caller sets the cookie.
 */
export async function acceptInvitation(input: unknown, visitor: LinkVisitor): Promise<OpenedBySignInLink> {
  const { token, password } = parseInput(useAccessLinkSchema, input);
  const tokenHash = hashLinkToken(token);
  await assertLinkLive(tokenHash, "invitation", visitor);
  const passwordHash = await hashPassword(password);
  const opened = await db()
    .$transaction(async (tx) => {
      const link = await takeLink(tx, tokenHash, "invitation");
      if (!link) return null;
      if (await tx.staff.findUnique({ where: { email: link.email } })) throw new AppError("email_taken", TAKEN);
      const staff = await tx.staff.create({
        data: { email: link.email, name: link.name, roles: link.roles, passwordHash },
      });
      await tx.accessLink.update({ where: { id: link.id }, data: { staffId: staff.id } });
      const session = await openSession(tx, staff, { ...visitor, firstFactor: "invitation" });
      const actor = { staffId: staff.id, email: staff.email, ...visitor };
      await recordAudit(tx, {
        action: "staff.invitation_accepted",
        actor,
        targetId: staff.id,
        details: { email: staff.email, roles: staff.roles, invitationId: link.id },
      });
      await recordAudit(tx, { action: "auth.sign_in", actor, targetId: session.id });
      return { staff, sessionId: session.id, pendingStep: session.pendingStep };
    })
    .catch((error: unknown) => {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
        throw new AppError("email_taken", TAKEN);
      throw error;
    });
  if (!opened) throw await refusalNow(tokenHash, "invitation");
  const { staff } = opened;
  return {
    staff: { id: staff.id, email: staff.email, name: staff.name },
    sessionId: opened.sessionId,
    pendingStep: opened.pendingStep,
  };
}
