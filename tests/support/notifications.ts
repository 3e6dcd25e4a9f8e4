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

/**
 * Webhook URLs that reach this machine, a private network or a metadata service, in the
 * spellings a URL parser accepts (issue 51): refused when saved and when sent.
 */
export const INSIDE_WEBHOOK_URLS = [
  "http://127.0.0.1:4684/hooks",
  "https://127.0.0.1/hooks",
  "http://localhost:4684/hooks",
  "https://localhost/hooks",
  "https://chat.localhost/hooks",
  "http://[::1]:4684/hooks",
  "https://[::1]/hooks",
  "https://127.1/hooks",
  "https://0x7f000001/hooks",
  "https://2130706433/hooks",
  "https://0177.0.0.1/hooks",
  "https://[::ffff:127.0.0.1]/hooks",
  "https://0.0.0.0/hooks",
  "https://169.254.169.254/latest/meta-data/",
  "https://[::ffff:169.254.169.254]/latest/meta-data/",
  "https://10.0.0.1/hooks",
  "https://172.16.5.4/hooks",
  "https://192.168.1.1/hooks",
  "https://100.64.0.1/hooks",
  "https://[fd00::1]/hooks",
  "https://[fe80::1]/hooks",
  "https://[64:ff9b::a9fe:a9fe]/hooks",
  "https://metadata.google.internal/computeMetadata/v1/",
  "https://metadata/computeMetadata/v1/",
];
