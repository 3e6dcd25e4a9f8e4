import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { queueDeliveries, readyDeliveries } from "./delivery-queue";
import { digestKey, groupDigests } from "./digest-groups";
import { afterQuietHours } from "./quiet-hours";
import { noLongerWaiting } from "./stale-approvals";
import { quietHours, readWorkspaceNotifications } from "./workspace-settings";

/**
 * Turns each person's held emails whose period has ended into one digest email: a delivery
 * with no event that the held ones point at (they become "digested"). An approval no longer
 * waiting is dropped instead (./stale-approvals.ts). One transaction with the held rows
 * locked (FOR UPDATE, no SKIP LOCKED): a second pass at the same moment waits, then finds them
 * digested, so one email is never in two digests. The digest is due at once, or when the
 * person's quiet hours end; its `notifications.send` job is queued in the same transaction.
 */
export async function collectDigests(
  options: { now?: Date; limit?: number } = {},
): Promise<{ digests: number; carried: number }> {
  const now = options.now ?? new Date();
  await readyDeliveries();
  return db().$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string; staffId: string; dueAt: Date; kind: string; eventKey: string }[]>`
      SELECT d."id", d."staffId", d."dueAt", e."kind", e."eventKey"
      FROM "NotificationDelivery" d JOIN "NotificationEvent" e ON e."id" = d."eventId"
      WHERE d."status" = 'held' AND d."dueAt" <= ${now}
      ORDER BY d."dueAt"
      LIMIT ${options.limit ?? 5_000}
      FOR UPDATE OF d`;
    if (due.length === 0) return { digests: 0, carried: 0 };
    // What is no longer true is left out: an approval decided (or expired) while it was held.
    const stale = await noLongerWaiting(tx, due);
    const held = due.filter((row) => !stale.has(row.eventKey));
    if (held.length < due.length)
      await tx.notificationDelivery.updateMany({
        where: { id: { in: due.filter((row) => stale.has(row.eventKey)).map((row) => row.id) }, status: "held" },
        data: { status: "dropped", lastError: "no longer waiting for a decision when the digest was composed", updatedAt: now },
      });
    const groups = groupDigests(held);
    const workspace = await readWorkspaceNotifications(tx);
    const preferences = await tx.notificationPreference.findMany({ where: { staffId: { in: groups.map((g) => g.staffId) } } });
    const byStaff = new Map(preferences.map((p) => [p.staffId, p]));
    for (const group of groups) {
      const own = byStaff.get(group.staffId);
      const quiet = own ? quietHours(own.quietStart, own.quietEnd) : quietHours(workspace.quietStart, workspace.quietEnd);
      const timeZone = own?.timeZone ?? workspace.timeZone;
      const digest = { id: randomUUID(), dueAt: afterQuietHours(now, quiet, timeZone) };
      await tx.notificationDelivery.create({
        data: {
          ...digest,
          deliveryKey: digestKey(group),
          channel: "email",
          staffId: group.staffId,
          status: "pending",
          createdAt: now,
        },
      });
      await queueDeliveries(tx, [digest]);
      await tx.notificationDelivery.updateMany({
        where: { id: { in: group.ids }, status: "held" },
        data: { status: "digested", digestId: digest.id, updatedAt: now },
      });
    }
    return { digests: groups.length, carried: held.length };
  });
}
