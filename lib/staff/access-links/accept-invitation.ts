import "server-only";
import { Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/record";
import type { LinkVisitor } from "./take-access-link";
import type { OpenedSession } from "@/lib/auth/open-session";
import { redeemAccessLink } from "./redeem-access-link";

const TAKEN = "An account with this email address already exists. Sign in, or ask an admin for help.";

/**
 * The invitee sets a password through the invitation's one-time link: the account is created
 * with the invitation's email, name and roles, in the transaction that takes the link, and a
 * session opened (first factor "invitation"), so a role the policy covers is sent to enrol a
 * second factor before anything else. The caller sets the cookie.
 */
export async function acceptInvitation(input: unknown, visitor: LinkVisitor): Promise<OpenedSession> {
  return redeemAccessLink(input, "invitation", visitor, async (tx, link, passwordHash) => {
    if (await tx.staff.findUnique({ where: { email: link.email } })) throw new AppError("email_taken", TAKEN);
    const staff = await tx.staff.create({ data: { email: link.email, name: link.name, roles: link.roles, passwordHash } });
    await tx.accessLink.update({ where: { id: link.id }, data: { staffId: staff.id } });
    await recordAudit(tx, {
      action: "staff.invitation_accepted",
      actor: { staffId: staff.id, email: staff.email, ...visitor },
      targetId: staff.id,
      details: { email: staff.email, roles: staff.roles, invitationId: link.id },
    });
    return staff;
  }).catch((error: unknown) => {
    // The address taken between the check and the insert (an operator's staff:create).
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new AppError("email_taken", TAKEN);
    throw error;
  });
}
