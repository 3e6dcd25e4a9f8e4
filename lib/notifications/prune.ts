import "server-only";
import { db } from "@/lib/db/client";

const DAY_MS = 86_400_000;
/** Finished deliveries stay this long on the outbox page (failed ones stay until sent again). */
export const KEEP_FINISHED_DAYS = 30;
/** The local catcher's mail stays this long. */
export const KEEP_CAUGHT_DAYS = 14;

/**
 * The outbox's finished rows and the catcher's old mail, deleted in the worker every hour so
 * neither grows without end. The in-app notifications and their events stay (a person's inbox
 * is their history); failed deliveries stay for an admin to read or send again.
 */
export async function pruneNotifications(now = new Date()): Promise<{ deliveries: number; caughtMail: number }> {
  const { count: deliveries } = await db().notificationDelivery.deleteMany({
    where: {
      status: { in: ["sent", "dropped", "digested"] },
      updatedAt: { lt: new Date(now.getTime() - KEEP_FINISHED_DAYS * DAY_MS) },
    },
  });
  const { count: caughtMail } = await db().caughtMail.deleteMany({
    where: { receivedAt: { lt: new Date(now.getTime() - KEEP_CAUGHT_DAYS * DAY_MS) } },
  });
  return { deliveries, caughtMail };
}
