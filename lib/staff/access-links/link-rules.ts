import { createHash, randomBytes } from "node:crypto";

/**
 * The rules of the one-time links an admin hands out: an invitation to join, or a password
 * reset of an existing person. A link carries a token of 256 random bits (base64url, 43
 * characters); only its SHA-256 is stored, so the database never holds a usable link. A token
 * this long needs no slow hash (nothing to guess), as the recovery codes' 50 bits need none.
 */
export const ACCESS_LINK_PURPOSES = ["invitation", "password_reset"] as const;
export type AccessLinkPurpose = (typeof ACCESS_LINK_PURPOSES)[number];

/**
 * How long a link works after it is handed out (or handed out again). An invitation waits a few
 * days for someone who is not at their desk yet; a reset link is for a person who is locked out
 * now (their password stopped working when it was issued), so one day.
 */
export const ACCESS_LINK_HOURS: Record<AccessLinkPurpose, number> = { invitation: 72, password_reset: 24 };

/** Where each link leads (public pages, lib/http/gate.ts lets them through without a session). */
export const ACCESS_LINK_PAGES: Record<AccessLinkPurpose, string> = {
  invitation: "/signin/invitation",
  password_reset: "/signin/reset-password",
};

export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function linkUrl(appUrl: string, purpose: AccessLinkPurpose, token: string): string {
  return new URL(`${ACCESS_LINK_PAGES[purpose]}/${token}`, appUrl).toString();
}

export function linkExpiry(purpose: AccessLinkPurpose, from: Date): Date {
  return new Date(from.getTime() + ACCESS_LINK_HOURS[purpose] * 3_600_000);
}

/** A link handed out at `now`: its token (for the person), the token's hash (stored) and when it stops working. */
export function newLink(purpose: AccessLinkPurpose, now: Date): { token: string; tokenHash: string; expiresAt: Date } {
  return { ...newLinkToken(), expiresAt: linkExpiry(purpose, now) };
}

/** Why a link does not work any more ("unknown": no such link); what the page and the API say of each. */
export type LinkRefusal = "unknown" | "used" | "expired" | "revoked";

export function linkState(
  link: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date } | null,
  now: Date,
): "live" | LinkRefusal {
  if (!link) return "unknown";
  if (link.usedAt) return "used";
  if (link.revokedAt) return "revoked";
  if (link.expiresAt.getTime() <= now.getTime()) return "expired";
  return "live";
}

/** The words of a refusal: never the address or the name the link was for. */
export const LINK_REFUSALS: Record<LinkRefusal, { title: string; detail: string }> = {
  unknown: {
    title: "This link is not valid",
    detail: "Check that you opened the whole link. If it still does not work, ask an admin for a new one.",
  },
  used: {
    title: "This link has already been used",
    detail: "Each link works once. Sign in with the password you set, or ask an admin for a new link.",
  },
  expired: { title: "This link has expired", detail: "Ask an admin to send you a new one." },
  revoked: {
    title: "This link has been withdrawn",
    detail: "An admin withdrew it or sent a newer one. Ask an admin if you still need access.",
  },
};
