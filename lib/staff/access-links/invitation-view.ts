import type { AccessLink } from "@/lib/db/generated/client";

/** What the Staff page shows of a waiting invitation: never its token or hash. */
export type InvitationView = {
  id: string;
  email: string;
  name: string;
  roles: string[];
  invitedBy: string | null;
  createdAt: string;
  sentAt: string;
  expiresAt: string;
  /** Past its expiry: the link no longer works; the admin may send a new one. */
  expired: boolean;
};

export function toInvitationView(link: AccessLink & { createdBy: { name: string } | null }, now: Date): InvitationView {
  return {
    id: link.id,
    email: link.email,
    name: link.name,
    roles: link.roles,
    invitedBy: link.createdBy?.name ?? null,
    createdAt: link.createdAt.toISOString(),
    sentAt: link.sentAt.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    expired: link.expiresAt.getTime() <= now.getTime(),
  };
}
