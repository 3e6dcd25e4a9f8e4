import "server-only";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { toInvitationView, type InvitationView } from "./invitation-view";

/** Invitations neither accepted nor revoked (expired ones too, to send again or revoke), newest first. */
export async function listInvitations(actor: Actor): Promise<InvitationView[]> {
  assertCan(actor, "staff.read");
  const now = new Date();
  const links = await db().accessLink.findMany({
    where: { purpose: "invitation", usedAt: null, revokedAt: null },
    include: { createdBy: { select: { name: true } } },
    orderBy: { sentAt: "desc" },
  });
  return links.map((link) => toInvitationView(link, now));
}
