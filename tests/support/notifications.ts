import { db } from "@/lib/db/client";

/** The notification an event recorded (its key names the event), or a failure saying none was. */
export async function notificationsOf(
  eventKey: string,
): Promise<{ kind: string; title: string; body: string | null; link: string }> {
  const event = await db().notificationEvent.findUnique({ where: { eventKey } });
  if (!event) throw new Error(`no notification recorded for ${eventKey}`);
  return event;
}

/** How many in-app notifications of this event one person has (0 or 1). */
export async function received(staffId: string, eventKey: string): Promise<number> {
  return db().notification.count({ where: { staffId, event: { eventKey } } });
}

/** How many events of a kind whose key contains `containing` were recorded. */
export async function countNotifications(kind: string, containing: string): Promise<number> {
  return db().notificationEvent.count({ where: { kind, eventKey: { contains: containing } } });
}
