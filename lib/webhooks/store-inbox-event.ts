import "server-only";
import { sqlQuery } from "@/lib/db/client";
import { isDataRefusal } from "@/lib/db/data-refusal";
import { askForDrain } from "./drain-inbox";

/**
 * Writes verified deliveries to the inbox, grouping the ones that arrive together into one
 * multi-row INSERT … ON CONFLICT DO NOTHING (one statement, so one commit: on the embedded
 * database the commit is the expensive part). One batch is in flight at a time; deliveries
 * arriving meanwhile share the next, so a lone delivery pays no extra delay. A caller's promise
 * resolves only after its row's statement committed, so nothing is acknowledged unstored. Then
 * the worker is asked to drain (drain-inbox.ts), not waited for: a lost request is covered by
 * the worker's sweep within seconds. Why: docs/decisions/0005-webhook-inbox-batched-inserts.md.
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
      if (await writeBatch(batch)) askForDrain();
    }
  } finally {
    inFlight = false;
  }
}

/** True when at least one new row committed. */
async function writeBatch(batch: Waiting[]): Promise<boolean> {
  try {
    const stored = await insertRows(batch.map((w) => w.row));
    const fresh = stored.size > 0;
    settleAll(batch, stored);
    return fresh;
  } catch (error) {
    // One row the database refuses for its data (a class 22/54 SQLSTATE) must not fail the
    // others: write each alone so that only that delivery meets the refusal.
    if (batch.length > 1 && isDataRefusal(error)) {
      let fresh = false;
      for (const w of batch)
        await insertRows([w.row]).then(
          (stored) => {
            fresh ||= stored.size > 0;
            settleAll([w], stored);
          },
          (e: unknown) => w.settle({ error: e }),
        );
      return fresh;
    }
    for (const w of batch) w.settle({ error });
    return false;
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

async function insertRows(rows: InboxRow[]): Promise<Set<string>> {
  const inserted = await sqlQuery<{ id: string }>(INSERT_ROWS, [
    rows.map((r) => r.id),
    rows.map((r) => r.type),
    rows.map((r) => r.occurredAt?.toISOString() ?? null),
    new Date().toISOString(),
    rows.map((r) => JSON.stringify(r.payload)),
  ]);
  return new Set(inserted.map((r) => r.id));
}
