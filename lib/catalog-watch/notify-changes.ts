import "server-only";
import { db } from "@/lib/db/client";
import { can } from "@/lib/auth/permissions";
import { notify } from "@/lib/notifications/notify";
import { isOneOf } from "@/lib/is-one-of";
import { CATALOG_CHANGES, matchesGroup, type GroupTarget } from "./watch-target";

/** At most this many changes go into one pass's messages; the rest wait for the next pass. */
const BATCH = 500;

/**
 * Tells each watcher of the changes recorded since the last time, in one notification per
 * person (five changed products are one message). A change nobody watches is marked told and
 * reaches no one. A watch for the whole workspace reaches everyone who may watch. The changes are
 * marked in the transaction of their notifications, so each is told once.
 */
export async function notifyChanges(now = new Date()): Promise<{ changes: number; people: number }> {
  const changes = (
    await db().catalogChange.findMany({ where: { notifiedAt: null }, orderBy: { detectedAt: "asc" }, take: BATCH })
  ).flatMap((c) => (isOneOf(CATALOG_CHANGES, c.change) ? [{ ...c, change: c.change }] : []));
  if (changes.length === 0) return { changes: 0, people: 0 };
  const watches = await db().catalogWatch.findMany({
    where: { staff: { active: true } },
    select: { staffId: true, workspace: true, productId: true, productType: true, brand: true, countryCode: true },
  });
  const everyone = watches.some((w) => w.workspace) ? await watchersOfWorkspace() : [];
  const byPerson = new Map<string, typeof changes>();
  for (const change of changes) {
    const product = { id: change.productId, type: change.productType, name: change.productName, countryCode: change.countryCode };
    const people = new Set<string>();
    for (const watch of watches) {
      const covers =
        watch.productId !== null ? watch.productId === change.productId : matchesGroup(watch as GroupTarget, product);
      if (!covers) continue;
      if (watch.workspace) everyone.forEach((id) => people.add(id));
      else people.add(watch.staffId);
    }
    for (const staffId of people) byPerson.set(staffId, [...(byPerson.get(staffId) ?? []), change]);
  }
  await db().$transaction(async (tx) => {
    for (const [staffId, theirs] of byPerson) {
      await notify(tx, "catalog.changed", {
        staffId,
        changes: theirs.map((c) => ({
          id: c.id,
          productId: c.productId,
          productName: c.productName,
          change: c.change,
          variantLabel: c.variantLabel,
          oldPriceMinor: c.oldPriceMinor?.toString() ?? null,
          newPriceMinor: c.newPriceMinor?.toString() ?? null,
          currency: c.currency,
          percent: c.percent?.toFixed(2) ?? null,
        })),
      });
    }
    await tx.catalogChange.updateMany({ where: { id: { in: changes.map((c) => c.id) } }, data: { notifiedAt: now } });
  });
  return { changes: changes.length, people: byPerson.size };
}

/** Active staff who may watch: a workspace watch's audience. */
async function watchersOfWorkspace(): Promise<string[]> {
  const staff = await db().staff.findMany({ where: { active: true }, select: { id: true, roles: true } });
  return staff.filter((s) => can(s.roles, "catalog.watch")).map((s) => s.id);
}
