import "server-only";
import { sqlTransaction } from "@/lib/db/client";
import { isDataRefusal } from "@/lib/db/data-refusal";
import { insertJobs, onSqlConnection, readyQueue } from "@/lib/jobs/send-job";
import { eventJob, WEBHOOK_EVENT_QUEUE } from "./event-job";

/**
 * Writes verified deliveries to the inbox, grouping the ones that arrive together into one
 * multi-row INSERT … ON CONFLICT DO NOTHING (one statement, so one commit: on the embedded
 * database the commit is the expensive part). One batch is in flight at a time; deliveries
 * arriving meanwhile share the next, so a lone delivery pays no extra delay. A caller's promise
 * resolves only after its row committed, so nothing is acknowledged unstored. Each new row's
 * processing job (event-job.ts) is inserted in the same transaction: a row never waits without
 * one. Why: docs/decisions/0005-webhook-inbox-batched-inserts.md.
 */
export type InboxRow = { id: string; type: string; occurredAt: Date | null; payload: unknown };
/** `stored` is false when the event was already in the inbox (a duplicate). */
export type Stored = { stored: boolean };

type Waiting = { row: InboxRow; settle: (outcome: Stored | { error: unknown }) => void };

/** Enough rows to fill one statement without holding a delivery behind a huge batch. */
const MAX_ROWS = 64;
let waiting: Waiting[] = [];
let inFlight = false;

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
  try {
    settleAll(batch, await insertRows(batch.map((w) => w.row)));
  } catch (error) {
    // One row the database refuses for its data (a class 22/54 SQLSTATE) must not fail the
    // others: write each alone so that only that delivery meets the refusal.
    if (batch.length > 1 && isDataRefusal(error)) {
      for (const w of batch)
        await insertRows([w.row]).then(
          (stored) => settleAll([w], stored),
          (e: unknown) => w.settle({ error: e }),
        );
      return;
    }
    for (const w of batch) w.settle({ error });
  }
}

/** The first delivery of an id in the batch stored it (if any did); later copies are duplicates. */
function settleAll(batch: Waiting[], stored: Set<string>): void {
  for (const w of batch) w.settle({ stored: stored.delete(w.row.id) });
}

/**
 * Written as SQL because Prisma's createMany({ skipDuplicates }) costs about four times as
 * long per event on PGlite, and sent through node-postgres (`sqlQuery`) because Prisma's
 * `$queryRaw` costs the receiver more CPU than everything else it does for a delivery. One
 * statement text for any number of rows (arrays, unnested), so each connection prepares it
 * once. Times are passed as UTC instants and converted in SQL, so the session's time zone
 * cannot shift them. Repeated ids in one statement are fine with DO NOTHING.
 */
const INSERT_ROWS = `
  INSERT INTO "WebhookEvent" ("id", "type", "occurredAt", "receivedAt", "payload", "state", "attempts")
  SELECT e.id, e.type, e.occurred AT TIME ZONE 'UTC', $4::timestamptz AT TIME ZONE 'UTC', e.payload, 'pending', 0
  FROM unnest($1::text[], $2::text[], $3::timestamptz[], $5::jsonb[]) AS e(id, type, occurred, payload)
  ON CONFLICT ("id") DO NOTHING
  RETURNING "id"`;

/** The rows and the jobs of those that are new, in one transaction; the ids stored. */
async function insertRows(rows: InboxRow[]): Promise<Set<string>> {
  await readyQueue(WEBHOOK_EVENT_QUEUE); // before the transaction: see insertJobs
  return sqlTransaction(async (query) => {
    const inserted = await query<{ id: string }>(INSERT_ROWS, [
      rows.map((r) => r.id),
      rows.map((r) => r.type),
      rows.map((r) => r.occurredAt?.toISOString() ?? null),
      new Date().toISOString(),
      rows.map((r) => JSON.stringify(r.payload)),
    ]);
    const stored = new Set(inserted.map((r) => r.id));
    const fresh = rows.filter((r) => stored.delete(r.id)); // the first copy of each new id
    if (fresh.length > 0) await insertJobs(WEBHOOK_EVENT_QUEUE, fresh.map(eventJob), onSqlConnection(query));
    return new Set(fresh.map((r) => r.id));
  });
}
