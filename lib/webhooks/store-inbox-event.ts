import "server-only";
import { db, Prisma, type Tx } from "@/lib/db/client";
import { isDataRefusal } from "@/lib/db/data-refusal";
import { insertJobs, readyQueue } from "@/lib/jobs/send-job";
import { processJob, WEBHOOK_PROCESS_QUEUE } from "./enqueue-event";

/**
 * Writes verified deliveries to the inbox, grouping the ones that arrive together into one
 * transaction (group commit): one multi-row INSERT … ON CONFLICT DO NOTHING for the rows,
 * and one INSERT of the processing jobs for the rows that are new. On the embedded
 * database a commit, not a statement, is the expensive part, and a commit per delivery
 * (plus one per job hand-off) held the receiver at a fifth of a bare HMAC server
 * (bench/webhook-receiver.ts). One batch is in flight at a time; deliveries arriving
 * meanwhile wait for it and share the next, so a lone delivery pays no extra delay.
 *
 * Durability is unchanged: a caller's promise resolves only after the transaction holding
 * its row has committed, and rejects when it failed, so nothing is acknowledged unstored.
 * Should the job insert fail, the rows are written alone and `queued` is false: the caller
 * hands off the usual way, and the worker's sweep covers a lost hand-off.
 */
export type InboxRow = { id: string; type: string; occurredAt: Date | null; payload: unknown; orderId?: string };
export type Stored = { stored: boolean; queued: boolean };

type Waiting = { row: InboxRow; settle: (outcome: Stored | { error: unknown }) => void };

/** Enough rows to fill one statement without holding a delivery behind a huge batch. */
const MAX_ROWS = 64;
let waiting: Waiting[] = [];
let inFlight = false;

/** `stored` is false when the event was already in the inbox (a duplicate); `queued` when its job went in with it. */
export function storeInboxEvent(row: InboxRow): Promise<Stored> {
  return new Promise((resolve, reject) => {
    waiting.push({ row, settle: (o) => ("error" in o ? reject(o.error) : resolve(o)) });
    // Deliveries parsed in the same turn of the event loop join this batch.
    if (!inFlight) setImmediate(() => void drain());
  });
}

async function drain(): Promise<void> {
  if (inFlight) return;
  inFlight = true;
  try {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_ROWS);
      waiting = waiting.slice(batch.length);
      await writeBatch(batch);
    }
  } finally {
    inFlight = false;
  }
}

async function writeBatch(batch: Waiting[]): Promise<void> {
  const rows = batch.map((w) => w.row);
  try {
    // Started outside the transaction: the queue's first start is slow and must not hold it open.
    await readyQueue(WEBHOOK_PROCESS_QUEUE);
    settleAll(batch, await db().$transaction((tx) => insertRows(tx, rows, true)), true);
    return;
  } catch {
    // Whatever failed (the queue, the data, the connection) is told apart below.
  }
  try {
    settleAll(batch, await insertRows(db(), rows, false), false);
  } catch (error) {
    // One row the database refuses for its data (a class 22/54 SQLSTATE) must not fail the
    // others: write each alone so that only that delivery meets the refusal.
    if (batch.length > 1 && isDataRefusal(error)) {
      for (const w of batch)
        await insertRows(db(), [w.row], false).then(
          (stored) => settleAll([w], stored, false),
          (e: unknown) => w.settle({ error: e }),
        );
      return;
    }
    for (const w of batch) w.settle({ error });
  }
}

/** The first delivery of an id in the batch stored it (if any did); later copies are duplicates. */
function settleAll(batch: Waiting[], stored: Set<string>, queued: boolean): void {
  for (const w of batch) {
    const now = stored.delete(w.row.id);
    w.settle({ stored: now, queued: now && queued });
  }
}

/**
 * Written as SQL because Prisma's createMany({ skipDuplicates }) costs about four times as
 * long per event on PGlite. Times are passed as UTC instants and converted in SQL, so the
 * session's time zone cannot shift them. Repeated ids in one statement are fine with DO NOTHING.
 */
async function insertRows(client: Tx, rows: InboxRow[], withJobs: boolean): Promise<Set<string>> {
  const utc = (d: Date | null) => (d ? Prisma.sql`(${d.toISOString()}::timestamptz AT TIME ZONE 'UTC')` : Prisma.sql`NULL`);
  const receivedAt = utc(new Date());
  const values = rows.map(
    (r) =>
      Prisma.sql`(${r.id}, ${r.type}, ${utc(r.occurredAt)}, ${receivedAt}, ${JSON.stringify(r.payload)}::jsonb, 'pending', 0)`,
  );
  const inserted = await client.$queryRaw<{ id: string }[]>`
    INSERT INTO "WebhookEvent" ("id", "type", "occurredAt", "receivedAt", "payload", "state", "attempts")
    VALUES ${Prisma.join(values)}
    ON CONFLICT ("id") DO NOTHING
    RETURNING "id"`;
  const stored = new Set(inserted.map((r) => r.id));
  const fresh = rows.filter((r, i) => stored.has(r.id) && rows.findIndex((o) => o.id === r.id) === i);
  if (withJobs && fresh.length > 0)
    await insertJobs(
      WEBHOOK_PROCESS_QUEUE,
      fresh.map((r) => processJob(r.id, r.orderId)),
      // The queue's statement runs in this transaction: the jobs commit with their rows.
      { executeSql: async (text, params = []) => ({ rows: await client.$queryRawUnsafe<unknown[]>(text, ...params) }) },
    );
  return stored;
}
