import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { accessLinkIdSchema } from "../schemas";
import { waitingInvitationGone } from "./resend-invitation";

/** Withdraws a waiting invitation: its link is refused from this commit on. */
export async function revokeInvitation(actor: Actor, invitationId: unknown): Promise<void> {
  assertCan(actor, "staff.invite");
  const id = parseInput(accessLinkIdSchema, invitationId);
  await db().$transaction(async (tx) => {
    const revoked = await tx.accessLink.updateMany({
      where: { id, purpose: "invitation", usedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (revoked.count === 0) throw waitingInvitationGone();
    const link = await tx.accessLink.findUniqueOrThrow({ where: { id } });
    await recordAudit(tx, { action: "staff.invitation_revoked", actor, targetId: id, details: { email: link.email } });
  });
}
