import "server-only";
import { db } from "@/lib/db/client";
import { markLinkExpired } from "./take-access-link";

/** Links marked per pass; the next pass takes the rest. */
const BATCH = 200;

/**
 * The worker's sweep (lib/staff/jobs.ts): every link past its expiry and not yet marked is marked
 * and audited once ("staff.access_link_expired", noticed by the sweep), so the audit log says an
 * invitation lapsed even when nobody tried the link. A use of such a link marks it first if it
 * comes before the sweep (take-access-link.ts); either way, once.
 */
export async function expireAccessLinks(now = new Date()): Promise<{ expired: number }> {
  const due = await db().accessLink.findMany({
    where: { usedAt: null, revokedAt: null, expiredAt: null, expiresAt: { lte: now } },
    select: { id: true, email: true, purpose: true },
    orderBy: { expiresAt: "asc" },
    take: BATCH,
  });
  let expired = 0;
  for (const link of due) {
    if (await db().$transaction((tx) => markLinkExpired(tx, link, "sweep", { email: "system:sweep" }, now))) expired++;
  }
  return { expired };
}
