import { createHash } from "node:crypto";
import pg from "pg";
import { upkeepWithoutAutovacuum } from "@/lib/db/upkeep";

/**
 * Fills a migrated database with a workspace's worth of history, straight in SQL (the
 * upstream is never asked): `orders` mirrored orders spread over `days` (several buyers
 * and a storefront, every state, three currencies, distinct client references), audit
 * entries in proportion (1.5 a order, at most 300,000: the audit log is not what this
 * measures), balance reads every 30 minutes, a deposit and a reconciled day per currency
 * each day. Deterministic:
 * the same count and days give the same rows.
 */
export async function seedAtScale(databaseUrl: string, orders: number, days = 90): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // In steps of 100,000: one statement of a million rows holds the embedded database for minutes.
    for (let first = 1; first <= orders; first += 100_000) {
      await client.query(ORDERS_SQL, [orders, false, days, first, Math.min(orders, first + 99_999)]);
    }
    await client.query(AUDIT_SQL, [Math.min(300_000, Math.round(orders * 1.5)), days]);
    await client.query(READS_SQL, [days]);
    await client.query(CREDITS_SQL, [days]);
    await client.query(RECONCILIATIONS_SQL, [days]);
    // What the worker's upkeep (lib/db/upkeep.ts) does within 10 minutes of such a fill on the
    // embedded database, which has no autovacuum: without it every index-only scan reads the rows.
    await upkeepWithoutAutovacuum(async (sql) => (await client.query(sql)).rows);
  } finally {
    await client.end();
  }
}

/**
 * The newest `written` of the seeded orders written again in one go, as a history import (or
 * an admin's "read every order again") leaves them: the same orders, placed over the same
 * days, but every row inserted by one statement a moment ago, so every `createdAt`,
 * `updatedAt` and `syncedAt` is that moment (as mirrorOrders records an imported order). No upkeep after it: the tables are as the write left them.
 * `inOneGo` false writes them back as seeded (a kept data folder, back to its first shape).
 * Returns the write's ms.
 */
export async function rewriteOrdersInOneGo(
  databaseUrl: string,
  { orders, days = 90, written = orders, inOneGo = true }: { orders: number; days?: number; written?: number; inOneGo?: boolean },
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Order i is 'ord_bench_' and i in 7 digits (or more); the newest are the lowest i.
    await client.query(`DELETE FROM "Order" WHERE "id" LIKE 'ord_bench_%' AND "id" <= $1`, [benchOrderId(written)]);
    const started = performance.now();
    await client.query(ORDERS_SQL, [orders, inOneGo, days, 1, written]);
    return performance.now() - started;
  } finally {
    await client.end();
  }
}

/** A part of one seeded order's client reference (six characters of its hash): what a customer quotes. */
export function referenceFragment(i: number): string {
  return `${REFERENCE_PREFIXES[i % 4]}-${md5(String(i)).slice(0, 10)}`.slice(-8, -2);
}

/** Seeded order i's id: ids sort as their numbers do (up to 9,999,999 orders). */
const benchOrderId = (i: number) => `ord_bench_${String(i).padStart(7, "0")}`;

const REFERENCE_PREFIXES = ["storefront", "shop", "bo", "app"];
const md5 = (text: string) => createHash("md5").update(text).digest("hex");
// Orders $4 to $5 of $1. Order i was placed i/n of $3 days ago (plus a few minutes of jitter); 2 in 5 by one of the
// app's buyers or admins, the rest by the storefront through the API. With $2, every row as
// the history import writes it (rewriteOrdersInOneGo): recorded, synced and updated at this
// moment, so its wallet movement is now; else recorded and synced moments after it was placed.
const ORDERS_SQL = `
WITH staff AS (
  SELECT array_agg("id" ORDER BY "email") AS ids FROM "Staff" WHERE 'buyer' = ANY("roles") OR 'admin' = ANY("roles")
), base AS (
  SELECT i,
         (now() AT TIME ZONE 'UTC') - make_interval(secs => (i::float8 / $1) * $3 * 86400 + (i * 7919) % 600) AS at,
         CASE WHEN i % 100 < 85 THEN 'fulfilled' WHEN i % 100 < 92 THEN 'failed' WHEN i % 100 < 97 THEN 'refunded'
              WHEN i % 100 < 99 THEN 'processing' ELSE 'reserved' END AS status,
         CASE WHEN i % 10 < 6 THEN 'USD' WHEN i % 10 < 9 THEN 'EUR' ELSE 'GBP' END AS currency,
         500 + (i * 104729) % 19500 AS unit, 1 + i % 3 AS qty
  FROM generate_series($4::bigint, $5::bigint) AS i
)
INSERT INTO "Order" ("id", "clientReference", "status", "totalMinor", "currency", "lines", "upstreamCreatedAt",
  "upstreamUpdatedAt", "placedById", "idempotencyKey", "syncedAt", "createdAt", "updatedAt")
SELECT 'ord_bench_' || lpad(i::text, 7, '0'),
       (ARRAY['storefront', 'shop', 'bo', 'app'])[1 + i % 4] || '-' || substr(md5(i::text), 1, 10),
       status, unit * qty, currency,
       jsonb_build_array(jsonb_build_object(
         'productId', 'prod_bench_' || (i % 40), 'variantId', 'var_' || (i % 40),
         'productName', (ARRAY['Steam Gift Card', 'Netflix', 'eSIM Europe 5 GB', 'Mobile top-up', 'Amazon Gift Card'])[1 + i % 5] || ' ' || (i % 40),
         'variantLabel', (unit / 100) || ' ' || currency, 'quantity', qty, 'unitPrice', unit / 100.0, 'currency', currency)),
       at,
       at + CASE status WHEN 'refunded' THEN interval '2 days' WHEN 'fulfilled' THEN interval '4 seconds' ELSE interval '2 seconds' END,
       CASE WHEN i % 5 < 2 THEN (SELECT ids[1 + i % array_length(ids, 1)] FROM staff) END,
       CASE WHEN i % 5 < 2 THEN 'bench-' || i END,
       CASE WHEN $2::boolean THEN now() AT TIME ZONE 'UTC' ELSE at + interval '1 second' END,
       CASE WHEN $2::boolean THEN now() AT TIME ZONE 'UTC' ELSE at + interval '200 milliseconds' END,
       CASE WHEN $2::boolean THEN now() AT TIME ZONE 'UTC'
            ELSE at + CASE status WHEN 'refunded' THEN interval '2 days' ELSE interval '5 seconds' END END
FROM base`;

const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in",
  "auth.sign_out",
  "order.place",
  "order.place",
  "order.place",
  "order.reveal_started",
  "order.reveal",
  "settings.update",
  "auth.step_up",
];
const AUDIT_SQL = `
WITH staff AS (SELECT array_agg("id" ORDER BY "email") AS ids, array_agg("email" ORDER BY "email") AS emails FROM "Staff")
INSERT INTO "AuditEvent" ("at", "actorId", "actorEmail", "action", "targetType", "targetId", "ip", "userAgent", "correlationId", "details")
SELECT (now() AT TIME ZONE 'UTC') - make_interval(secs => (j::float8 / $1) * $2 * 86400),
       ids[1 + j % array_length(ids, 1)], emails[1 + j % array_length(emails, 1)],
       (ARRAY['${AUDIT_ACTIONS.join("','")}'])[1 + j % ${AUDIT_ACTIONS.length}],
       CASE WHEN j % 10 BETWEEN 3 AND 7 THEN 'order' END,
       CASE WHEN j % 10 BETWEEN 3 AND 7 THEN 'ord_bench_' || lpad((1 + j % 100000)::text, 7, '0') END,
       '10.0.' || (j % 256) || '.' || (j % 250), 'Mozilla/5.0 (bench)', md5(j::text),
       jsonb_build_object('bench', true, 'n', j)
FROM generate_series(1, $1::bigint) AS j, staff
-- Oldest first, so that ids rise with time as they do for entries the app writes (the log lists by id).
ORDER BY j DESC`;

const READS_SQL = `
INSERT INTO "BalanceRead" ("currency", "availableMinor", "readAt")
SELECT c, 50000000 + (k * 7919) % 1000000, (now() AT TIME ZONE 'UTC') - make_interval(mins => k * 30)
FROM generate_series(1, $1 * 48) AS k, unnest(ARRAY['USD', 'EUR', 'GBP']) AS c`;

const CREDITS_SQL = `
INSERT INTO "WalletCredit" ("eventId", "amountMinor", "currency", "availableBalanceMinor", "occurredAt", "createdAt")
SELECT 'evt_bench_' || c || '_' || d, 1000000 + d * 100, c, NULL,
       (now() AT TIME ZONE 'UTC') - make_interval(days => d, hours => 3),
       (now() AT TIME ZONE 'UTC') - make_interval(days => d, hours => 3)
FROM generate_series(1, $1::int) AS d, unnest(ARRAY['USD', 'EUR', 'GBP']) AS c`;

// A day's statement per currency, as the daily reconciliation records it; one day in 20 with a difference.
const RECONCILIATIONS_SQL = `
INSERT INTO "WalletReconciliation" ("day", "currency", "status", "openingMinor", "capturedMinor", "capturedCount",
  "refundedMinor", "refundedCount", "creditedMinor", "creditedCount", "withdrawnMinor", "withdrawnCount",
  "expectedClosingMinor", "closingMinor", "differenceMinor", "readAt", "readAsOf", "readTotalMinor",
  "readAvailableMinor", "readReservedMinor", "readPendingMinor", "afterDayMinor", "explanations", "updatedAt")
SELECT to_char(day, 'YYYY-MM-DD'), c, CASE WHEN d % 20 = 0 THEN 'difference' ELSE 'reconciled' END,
       50000000, 900000, 90, 30000, 3, 1000000 + d * 100, 1, 0, 0,
       50000000 - 900000 + 30000 + 1000000 + d * 100, 50000000 - 900000 + 30000 + 1000000 + d * 100 - CASE WHEN d % 20 = 0 THEN 500 ELSE 0 END,
       CASE WHEN d % 20 = 0 THEN -500 ELSE 0 END, day + interval '1 day 5 minutes', day + interval '1 day',
       50000000, 50000000, 0, 0, 0, '[]'::jsonb, day + interval '1 day 5 minutes'
FROM generate_series(1, $1::int) AS d, unnest(ARRAY['USD', 'EUR', 'GBP']) AS c,
     LATERAL (SELECT date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => d) AS day) AS t`;
