import { db } from "@/lib/db/client";
import { getQueue } from "@/lib/jobs/queue";
import { DELIVERY_QUEUE } from "@/lib/notifications/delivery-queue";
import { eventually } from "./sandbox";

const QUEUE = DELIVERY_QUEUE.name;

/**
 * Moves the delivery queue's clock to `now` (tests drive minutes of backoff and hours of quiet
 * without waiting; pg-boss compares with the database's clock): a job running since before has
 * run that much longer (expired, if that is past its expiry), and a job due by `now` is due at
 * once.
 */
export async function moveDeliveryQueueTo(now: Date): Promise<void> {
  const [{ since }] = (await db().$queryRaw<{ since: Date }[]>`SELECT now() AS since`) as [{ since: Date }];
  const ahead = `${Math.max(0, now.getTime() - since.getTime())} milliseconds`;
  const aged = await db().$executeRaw`
    UPDATE pgboss.job SET started_on = started_on - ${ahead}::interval WHERE name = ${QUEUE} AND state = 'active'`;
  if (aged > 0) {
    const { boss } = await getQueue("worker");
    await eventually(async () => {
      await boss.supervise(QUEUE);
      const [{ expired }] = (await db().$queryRaw<{ expired: number }[]>`
        SELECT count(*)::int AS expired FROM pgboss.job
        WHERE name = ${QUEUE} AND state = 'active' AND started_on + expire_seconds * interval '1 second' < now()`) as [
        { expired: number },
      ];
      return expired === 0;
    }, 30_000);
  }
  await db().$executeRaw`
    UPDATE pgboss.job SET start_after = now()
    WHERE name = ${QUEUE} AND state IN ('created', 'retry') AND start_after <= now() + ${ahead}::interval`;
}

/** The attempts ("<job id>:<retry count>") crashDeliveryJob left in the hands of a dead worker: no worker finishes them. */
const crashed = new Set<string>();

/** Nothing due is waiting in the delivery queue and no job is running (but those of a dead worker). */
export async function deliveryJobsIdle(timeoutMs = 120_000): Promise<void> {
  await eventually(async () => {
    const [{ busy }] = (await db().$queryRaw<{ busy: number }[]>`
      SELECT count(*)::int AS busy FROM pgboss.job
      WHERE name = ${QUEUE}
        AND ((state IN ('created', 'retry') AND start_after <= now())
          OR (state = 'active' AND NOT (id::text || ':' || retry_count = ANY(${[...crashed]}::text[]))))`) as [{ busy: number }];
    return busy === 0;
  }, timeoutMs);
}

/** A delivery's job back in the hands of a worker that died (active since now, never finished). */
export async function crashDeliveryJob(deliveryId: string): Promise<void> {
  const jobs = await db().$queryRaw<{ attempt: string }[]>`
    UPDATE pgboss.job SET state = 'active', started_on = now(), completed_on = NULL
    WHERE name = ${QUEUE} AND singleton_key = ${deliveryId} RETURNING id::text || ':' || retry_count AS attempt`;
  if (jobs.length !== 1) throw new Error(`expected one job for delivery ${deliveryId}, found ${jobs.length}`);
  crashed.add(jobs[0]!.attempt);
}

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
