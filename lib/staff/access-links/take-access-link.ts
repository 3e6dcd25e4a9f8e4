import "server-only";
import { db, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordAudit, type AuditActor } from "@/lib/audit/record";
import type { AccessLink } from "@/lib/db/generated/client";
import { LINK_REFUSALS, linkState, type AccessLinkPurpose, type LinkRefusal } from "./link-rules";

/** Where a use of a link comes from: an anonymous visitor until the link names a person. */
export type LinkVisitor = { ip: string | null; userAgent: string | null };

/** The answer to a link that does not work: 410, the reason in words; never the address it was for. */
export function linkRefused(reason: LinkRefusal): AppError {
  const { title, detail } = LINK_REFUSALS[reason];
  return new AppError("link_refused", `${title}. ${detail}`, { status: 410, extra: { reason } });
}

/**
 * Before the password is judged and hashed (not to be spent on any anonymous guess): the link
 * must be live now; it is returned, for the person it names. A link found past its expiry is marked and audited the first time (here or
 * by the sweep, whichever comes first), in its own transaction, then refused.
 */
export async function assertLinkLive(tokenHash: string, purpose: AccessLinkPurpose, visitor: LinkVisitor): Promise<AccessLink> {
  const now = new Date();
  const link = await db().accessLink.findUnique({ where: { tokenHash } });
  const state = link && link.purpose === purpose ? linkState(link, now) : "unknown";
  if (state === "live") return link!;
  if (state === "expired") await db().$transaction((tx) => markLinkExpired(tx, link!, "use", visitor, now));
  throw linkRefused(state);
}

/**
 * Marks the link used in the one statement that checks it is still live, so of two uses at once
 * exactly one gets it (the other waits on the row, then finds it used). Null: not live any more.
 */
export async function takeLink(tx: Tx, tokenHash: string, purpose: AccessLinkPurpose): Promise<AccessLink | null> {
  const now = new Date();
  const taken = await tx.accessLink.updateMany({
    where: { tokenHash, purpose, usedAt: null, revokedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return taken.count === 1 ? tx.accessLink.findUnique({ where: { tokenHash } }) : null;
}

/**
 * Single sign-on's way to accept an invitation: the live invitation of `email` (one at most, by
 * the partial unique index), marked used in the statement that finds it, as takeLink does.
 */
export async function takeInvitationFor(tx: Tx, email: string): Promise<AccessLink | null> {
  const now = new Date();
  const [taken] = await tx.accessLink.updateManyAndReturn({
    where: { purpose: "invitation", email, usedAt: null, revokedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return taken ?? null;
}

/** Why a link just lost (a use that came second, a revocation in between): read again after the fact. */
export async function refusalNow(tokenHash: string, purpose: AccessLinkPurpose): Promise<AppError> {
  const link = await db().accessLink.findUnique({ where: { tokenHash } });
  const state = link && link.purpose === purpose ? linkState(link, new Date()) : "unknown";
  return linkRefused(state === "live" ? "used" : state);
}

/** Records, once per link, that it was found past its expiry. */
export async function markLinkExpired(
  tx: Tx,
  link: Pick<AccessLink, "id" | "email" | "purpose">,
  noticedBy: "use" | "sweep",
  actor: AuditActor,
  now: Date,
): Promise<boolean> {
  const marked = await tx.accessLink.updateMany({
    where: { id: link.id, expiredAt: null, usedAt: null, revokedAt: null, expiresAt: { lte: now } },
    data: { expiredAt: now },
  });
  if (marked.count === 0) return false;
  await recordAudit(tx, {
    action: "staff.access_link_expired",
    actor,
    targetId: link.id,
    details: { email: link.email, purpose: link.purpose as AccessLinkPurpose, noticedBy },
  });
  return true;
}
