import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { inviteStaffSchema } from "../schemas";
import { deliverNewLink, type LinkDelivery } from "./deliver-link";
import { newLink } from "./link-rules";
import { toInvitationView, type InvitationView } from "./invitation-view";

const TAKEN = "Someone already has an account with this email address.";
const WAITING = "An invitation to this address is already waiting: send it again or revoke it in the list of invitations.";

/**
 * An admin invites a person by email, name and roles. Nobody exists until the invitee opens the
 * one-time link and sets a password (accept-invitation.ts). The row and its audit entry are
 * committed first; only then does the link leave (deliverAccessLink: emailed when mail is set
 * up, else shown once to the admin).
 */
export async function inviteStaff(actor: Actor, input: unknown): Promise<{ invitation: InvitationView; delivery: LinkDelivery }> {
  assertCan(actor, "staff.invite");
  const data = parseInput(inviteStaffSchema, input);
  const now = new Date();
  const { token, tokenHash, expiresAt } = newLink("invitation", now);
  let link;
  try {
    link = await db().$transaction(async (tx) => {
      if (await tx.staff.findUnique({ where: { email: data.email } }))
        throw new AppError("email_taken", TAKEN, { fieldErrors: { email: [TAKEN] } });
      const created = await tx.accessLink.create({
        data: {
          purpose: "invitation",
          tokenHash,
          email: data.email,
          name: data.name,
          roles: data.roles,
          createdById: actor.staffId,
          createdAt: now,
          sentAt: now,
          expiresAt,
        },
        include: { createdBy: { select: { name: true } } },
      });
      await recordAudit(tx, {
        action: "staff.invite",
        actor,
        targetId: created.id,
        details: { email: data.email, roles: data.roles, expiresAt: expiresAt.toISOString() },
      });
      return created;
    });
  } catch (error) {
    // The partial unique index: one live invitation per address (two admins at once, too).
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw new AppError("conflict", WAITING, { fieldErrors: { email: [WAITING] } });
    throw error;
  }
  const delivery = await deliverNewLink(
    { purpose: "invitation", email: link.email, name: link.name, expiresAt, from: actor.name },
    token,
  );
  return { invitation: toInvitationView(link, now), delivery };
}
