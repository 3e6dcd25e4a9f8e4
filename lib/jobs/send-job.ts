import "server-only";
import { randomBytes } from "node:crypto";
import type { Db, JobInsert, SendOptions } from "pg-boss";
import type { SqlQuery, Tx } from "@/lib/db/client";
import type { QueueSpec } from "./define-job";
import { ensureQueue, getQueue, queueReadyFor, type Jobs } from "./queue";

/**
 * Sends one job to a domain's queue, creating the queue first if this instance has not yet.
 * A handler passes the instance it runs on (`via`), so that a continuation sent while its
 * worker stops goes out on that instance instead of starting another. Resolves with the
 * job id, or null when the queue dropped it (its singleton key is already queued).
 */
export async function sendJob(queue: QueueSpec, data: object, options: SendOptions = {}, via?: Jobs): Promise<string | null> {
  const jobs = via ?? (await getQueue());
  await ensureQueue(jobs, queue);
  return jobs.boss.send(queue.name, data, options);
}

/** Starts this process's queue and creates `queue` if need be (once; later calls are free). */
export async function readyQueue(queue: QueueSpec): Promise<void> {
  await ensureQueue(await getQueue(), queue);
}

/**
 * Several jobs in one INSERT; a job whose singleton key is already queued is skipped.
 * `within` runs the INSERT on the caller's connection instead (inside its transaction, see
 * onTransaction), so that the jobs commit or roll back with the caller's own rows. The queue
 * must then be ready (readyQueue) before the transaction opens: starting it inside waits on
 * connections the open transaction holds (on PGlite, for as long as the transaction lasts).
 */
export async function insertJobs<T extends object>(queue: QueueSpec, jobs: JobInsert<T>[], within?: Db): Promise<void> {
  if (within) {
    const { boss } = await queueReadyFor(queue);
    await boss.insert(queue.name, ordered(jobs), { returnId: false, db: within });
    return;
  }
  const held = await getQueue();
  await ensureQueue(held, queue);
  await held.boss.insert(queue.name, ordered(jobs), { returnId: false });
}

/** A Prisma interactive transaction as the connection pg-boss runs its SQL on (`insertJobs(…, within)`). */
export function onTransaction(tx: Tx): Db {
  return {
    executeSql: async (text, values = []) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }),
  };
}

/** A connection held through `sqlTransaction` (node-postgres) as the connection pg-boss runs its SQL on. */
export function onSqlConnection(query: SqlQuery): Db {
  return { executeSql: async (text, values = []) => ({ rows: await query(text, values) }) };
}

/** Jobs inserted together share their `created_on`, and pg-boss ranks a group's jobs by id: time-ordered ids keep their order. */
function ordered<T extends object>(jobs: JobInsert<T>[]): JobInsert<T>[] {
  return jobs.map((job) => ({ id: orderedJobId(), ...job }));
}

let lastMs = 0;
let sequence = 0;

/** A time-ordered UUID (version 7, a sequence within the millisecond). */
function orderedJobId(): string {
  const ms = Date.now();
  sequence = ms === lastMs ? (sequence + 1) & 0xfff : 0;
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
