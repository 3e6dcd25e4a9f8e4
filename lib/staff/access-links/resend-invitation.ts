import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { accessLinkIdSchema } from "../schemas";
import { deliverNewLink, type LinkDelivery } from "./deliver-link";
import { newLink } from "./link-rules";
import { toInvitationView, type InvitationView } from "./invitation-view";

/**
 * A new link for a waiting invitation (lost, or expired): the waiting one is revoked (its link
 * then says it was withdrawn or replaced) and a new one made with the same address, name and
 * roles, working for the full period again, in one transaction.
 */
export async function resendInvitation(
  actor: Actor,
  invitationId: unknown,
): Promise<{ invitation: InvitationView; delivery: LinkDelivery }> {
  assertCan(actor, "staff.invite");
  const id = parseInput(accessLinkIdSchema, invitationId);
  const now = new Date();
  const { token, tokenHash, expiresAt } = newLink("invitation", now);
  const link = await db().$transaction(async (tx) => {
    const revoked = await tx.accessLink.updateMany({
      where: { id, purpose: "invitation", usedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    if (revoked.count === 0) throw waitingInvitationGone();
    const old = await tx.accessLink.findUniqueOrThrow({ where: { id } });
    const created = await tx.accessLink.create({
      data: {
        purpose: "invitation",
        tokenHash,
        email: old.email,
        name: old.name,
        roles: old.roles,
        createdById: actor.staffId,
        createdAt: old.createdAt,
        sentAt: now,
        sendCount: old.sendCount + 1,
        expiresAt,
      },
      include: { createdBy: { select: { name: true } } },
    });
    await recordAudit(tx, {
      action: "staff.invitation_resent",
      actor,
      targetId: created.id,
      details: { email: created.email, expiresAt: expiresAt.toISOString(), sendCount: created.sendCount, replaces: id },
    });
    return created;
  });
  const delivery = await deliverNewLink(
    { purpose: "invitation", email: link.email, name: link.name, expiresAt, from: actor.name },
    token,
  );
  return { invitation: toInvitationView(link, now), delivery };
}

/** No waiting invitation by that id: never made, accepted meanwhile, or revoked. */
export function waitingInvitationGone(): AppError {
  return new AppError("not_found", "This invitation is no longer waiting: it was accepted or revoked.");
}
