import "server-only";
import { db } from "@/lib/db/client";
import { passwordAllowed, readSsoOnly } from "@/lib/auth/sso/sso-only";
import { hashLinkToken, LINK_TOKEN_PATTERN, linkState, type AccessLinkPurpose, type LinkRefusal } from "./link-rules";

export type AccessLinkPageView =
  | {
      state: "live";
      email: string;
      name: string;
      expiresAt: string;
      /** The IdP's name while SSO-only mode turns passwords off for this address: sign in with it instead. */
      sso: string | null;
    }
  | { state: LinkRefusal };

/**
 * What the link's page shows, read without changing anything (a mail scanner or a preview may
 * open the link before its person does): the form with the address it is for while it is live,
 * else why it does not work, never the address.
 */
export async function readAccessLink(token: string, purpose: AccessLinkPurpose): Promise<AccessLinkPageView> {
  if (!LINK_TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const link = await db().accessLink.findUnique({ where: { tokenHash: hashLinkToken(token) } });
  const state = link && link.purpose === purpose ? linkState(link, new Date()) : "unknown";
  if (state !== "live") return { state };
  const sso = await readSsoOnly();
  return {
    state,
    email: link!.email,
    name: link!.name,
    expiresAt: link!.expiresAt.toISOString(),
    sso: passwordAllowed(sso, link!.email) ? null : (sso.name ?? "single sign-on"),
  };
}
