import "server-only";
import { db } from "@/lib/db/client";
import { DELIVERY_QUEUE, queueDeliveries, readyDeliveries } from "./delivery-queue";

/** One worker at a time looks (two at once would each queue a job for the same row). */
const ADOPT_LOCK = 4_107_301;

/**
 * Queues a job for each open delivery that has none waiting or running: the rows recorded
 * before deliveries were jobs (an upgrade), or written by hand. Run once by each worker, at its
 * first digest pass; a row's job is otherwise queued with the row.
 */
export async function adoptDeliveries(): Promise<{ adopted: number }> {
  await readyDeliveries();
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADOPT_LOCK})`;
    const open = await tx.$queryRaw<{ id: string; dueAt: Date }[]>`
      SELECT d."id", d."dueAt" FROM "NotificationDelivery" d
      WHERE d."status" IN ('pending', 'sending')
        AND NOT EXISTS (
          SELECT 1 FROM pgboss.job j
          WHERE j.name = ${DELIVERY_QUEUE.name} AND j.singleton_key = d."id" AND j.state IN ('created', 'retry', 'active'))`;
    await queueDeliveries(tx, open);
    return { adopted: open.length };
  });
}
