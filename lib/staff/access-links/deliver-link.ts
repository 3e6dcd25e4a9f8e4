import "server-only";
import { getEnv } from "@/lib/env";
import { linkUrl, type AccessLinkPurpose } from "./link-rules";

/** How a link reached (or will reach) its person: "shown_once" means the admin passes it on. */
export type LinkDelivery = { via: "shown_once"; url: string } | { via: "email" };

/**
 * The one place a new link leaves the app. No mail is configured yet, so the admin who made the
 * link sees it once, to pass on (the answer of the request that made it; never stored in clear
 * nor shown again). When mail exists (issue 41), this sends it and answers `{ via: "email" }`,
 * and the Staff page says "sent" instead of showing the link. Called after the link's row and
 * audit entry are committed.
 */
export async function deliverAccessLink(link: {
  purpose: AccessLinkPurpose;
  email: string;
  name: string;
  url: string;
  expiresAt: Date;
}): Promise<LinkDelivery> {
  return { via: "shown_once", url: link.url };
}

/** A link just committed, with its token (never stored), handed to `deliverAccessLink` under its address. */
export function deliverNewLink(
  link: { purpose: AccessLinkPurpose; email: string; name: string; expiresAt: Date },
  token: string,
): Promise<LinkDelivery> {
  return deliverAccessLink({ ...link, url: linkUrl(getEnv().APP_URL, link.purpose, token) });
}
