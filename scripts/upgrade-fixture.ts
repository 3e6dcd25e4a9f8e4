/**
 * Regenerates tests/fixtures/previous-release.sql: the database as the previous release leaves
 * it, for the upgrade test (tests/integration/upgrade.test.ts). Its schema is made by that
 * release's own migrations, read from git at PREVIOUS_RELEASE, and its rows are data of every
 * kind written into it (the release's triggers keep their sums as they did then).
 *
 *   npx tsx --conditions=react-server scripts/upgrade-fixture.ts
 *
 * At each release, set PREVIOUS_RELEASE to the release before it and run this again.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { hashPassword } from "@/lib/auth/password";
import { deriveKey } from "@/lib/crypto/derive-key";
import { sealSecret } from "@/lib/crypto/seal";
import { appTables, quoteIdent } from "@/lib/backup/read-snapshot";
import { startEmbeddedDb } from "@/lib/db/embedded";
import { migrate, MIGRATIONS_TABLE } from "@/lib/db/migrate";
import { FIXTURE } from "../tests/fixtures/previous-release";

const PREVIOUS_RELEASE = "4e3a546";
const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "tests/fixtures/previous-release.sql");

const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });

const migrationsDir = await mkdtemp(path.join(tmpdir(), "previous-release-"));
const names = git("ls-tree", "--name-only", `${PREVIOUS_RELEASE}:prisma/migrations`).split("\n").filter(Boolean);
const schemaSql: string[] = [];
for (const name of names) {
  const sql = git("show", `${PREVIOUS_RELEASE}:prisma/migrations/${name}/migration.sql`);
  await mkdir(path.join(migrationsDir, name));
  await writeFile(path.join(migrationsDir, name, "migration.sql"), sql);
  schemaSql.push(`-- migration ${name}\n${sql}`);
}

const db = await startEmbeddedDb();
try {
  await migrate(db.url, migrationsDir);
  const client = new pg.Client({ connectionString: db.url });
  client.on("error", () => undefined); // the server stopping under a failed run is not the news
  await client.connect();
  await client.query(await seedSql());
  const data: string[] = [];
  for (const table of await appTables(client)) {
    const { rows } = await client.query<{ line: string }>(
      `SELECT format('INSERT INTO %I SELECT (%L::%I).*;', $1::text, t::text, $1::text) AS line
         FROM ${quoteIdent(table)} t ORDER BY t::text COLLATE "C"`,
      [table],
    );
    data.push(...rows.map((r) => r.line));
  }
  const { rows: sequences } = await client.query<{ line: string }>(
    `SELECT format('SELECT setval(%L, %s, %s);', quote_ident(sequencename), COALESCE(last_value, 1), (last_value IS NOT NULL)::text) AS line
       FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`,
  );
  await client.end();
  await writeFile(
    out,
    [
      `-- The database as release ${PREVIOUS_RELEASE} leaves it (made by scripts/upgrade-fixture.ts; do not edit by hand).`,
      "-- Its schema: that release's migrations, in order. Then its rows, _prisma_migrations included, as written.",
      ...schemaSql,
      "-- Rows (the kept sums as the release's triggers wrote them: triggers off while loading).",
      "-- The table the release's migrate step records them in (lib/db/migrate.ts).",
      `${MIGRATIONS_TABLE.trim()};`,
      "SET session_replication_role = replica;",
      ...data,
      ...sequences.map((s) => s.line),
      "RESET session_replication_role;",
      "",
    ].join("\n"),
  );
  console.log(`wrote ${path.relative(root, out)}: ${names.length} migrations, ${data.length} rows`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await db.stop();
  await rm(migrationsDir, { recursive: true, force: true });
}

/** Data of every kind, in the previous release's columns. */
async function seedSql(): Promise<string> {
  const hash = await hashPassword(FIXTURE.password);
  const sealed = sealSecret(FIXTURE.totpSecret, deriveKey(FIXTURE.secondFactorKey, "secondFactorSeal"), FIXTURE.factorId);
  const at = "TIMESTAMP '2026-11-27 10:00:00'";
  const q = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return `
INSERT INTO "Staff" (id, email, name, "passwordHash", roles, "updatedAt") VALUES
  ('stf-admin', 'ada@fixture.local', 'Ada Admin', ${q(hash)}, '{admin}', ${at}),
  (${q(FIXTURE.staffId)}, ${q(FIXTURE.email)}, 'Bo Buyer', ${q(hash)}, '{buyer,support}', ${at}),
  ('stf-finance', 'fin@fixture.local', 'Fi Finance', ${q(hash)}, '{finance}', ${at}),
  ('stf-approver', 'apr@fixture.local', 'Al Approver', ${q(hash)}, '{approver}', ${at}),
  ('stf-gone', 'gone@fixture.local', 'Gone Person', ${q(hash)}, '{viewer}', ${at});
UPDATE "Staff" SET active = false, "sessionVersion" = 2 WHERE id = 'stf-gone';
INSERT INTO "SecondFactor" (id, "staffId", kind, name, "totpSecret", "confirmedAt", "createdAt") VALUES
  (${q(FIXTURE.factorId)}, ${q(FIXTURE.staffId)}, 'totp', 'Phone', ${q(sealed)}, ${at}, ${at});
INSERT INTO "RecoveryCode" (id, "staffId", "codeHash") VALUES
  ('rc-1', ${q(FIXTURE.staffId)}, encode(sha256('fixture-recovery-1'), 'hex')), ('rc-2', ${q(FIXTURE.staffId)}, encode(sha256('fixture-recovery-2'), 'hex'));
INSERT INTO "StaffSession" (id, "staffId", "sessionVersion", ip, "userAgent") VALUES ('ses-1', ${q(FIXTURE.staffId)}, 1, '203.0.113.9', 'fixture');
INSERT INTO "AccessLink" (id, purpose, "tokenHash", email, name, roles, "createdById", "expiresAt") VALUES
  ('link-1', 'invitation', encode(sha256('fixture-link'), 'hex'), 'new@fixture.local', 'New Person', '{viewer}', 'stf-admin', ${at} + interval '7 days');
INSERT INTO "SignInThrottle" (key, failures) VALUES ('email:gone@fixture.local', 3);
INSERT INTO "Setting" (key, value, "updatedAt", "updatedBy") VALUES
  ('orderConfirmationAmount', '"250.00"', ${at}, 'stf-admin'), ('revealQuotaPerHour', '12', ${at}, 'stf-admin');
INSERT INTO "Order" (id, "clientReference", status, "totalMinor", currency, lines, "upstreamCreatedAt", "upstreamUpdatedAt", "placedById", "idempotencyKey", "updatedAt") VALUES
  ('ord_fix1', 'INV-1', 'fulfilled', 2500, 'USD', '[{"productName":"Gift card","quantity":1,"unitPriceMinor":2500}]', ${at}, ${at}, ${q(FIXTURE.staffId)}, 'idem-1', ${at}),
  ('ord_fix2', 'INV-2', 'fulfilled', 10000, 'USD', '[{"productName":"Top-up","quantity":2,"unitPriceMinor":5000}]', ${at}, ${at}, ${q(FIXTURE.staffId)}, 'idem-2', ${at}),
  ('ord_fix3', 'INV-3', 'refunded', 4000, 'EUR', '[{"productName":"Gift card","quantity":1,"unitPriceMinor":4000}]', ${at}, ${at}, ${q(FIXTURE.staffId)}, 'idem-3', ${at}),
  ('ord_fix4', 'INV-4', 'failed', 700, 'USD', '[{"productName":"Voucher","quantity":1,"unitPriceMinor":700}]', ${at}, ${at}, NULL, NULL, ${at}),
  ('ord_fix5', 'INV-5', 'processing', 1200, 'GBP', '[{"productName":"Voucher","quantity":1,"unitPriceMinor":1200}]', ${at}, ${at}, ${q(FIXTURE.staffId)}, 'idem-5', ${at});
INSERT INTO "IdempotencyKey" (key, purpose, "requestHash", "requestBody", state, "resultId", "staffId", "updatedAt") VALUES
  ('idem-1', 'order', 'h1', '{"clientReference":"INV-1"}', 'succeeded', 'ord_fix1', ${q(FIXTURE.staffId)}, ${at});
INSERT INTO "OrderSync" (source, "importState", "importOrders", "updatedAt") VALUES ('http://127.0.0.1:4700', 'done', 5, ${at});
INSERT INTO "WebhookEvent" (id, type, "occurredAt", payload, state, "processedAt") VALUES
  ('evt_fix1', 'order.fulfilled', ${at}, '{"orderId":"ord_fix1"}', 'processed', ${at});
INSERT INTO "WalletCredit" ("eventId", "amountMinor", currency, "availableBalanceMinor", "occurredAt") VALUES ('evt_credit1', 50000, 'USD', 150000, ${at});
INSERT INTO "BalanceRead" (currency, "availableMinor", "readAt") VALUES ('USD', 150000, ${at}), ('USD', 137500, ${at} + interval '1 hour');
INSERT INTO "UpstreamKey" (lookup, name, slot, scopes, "heldBy") VALUES ('svckey_fix', 'ordering', 'ordering', '{orders:write}', '{web}');
INSERT INTO "WithdrawalRequest" (id, "amountMinor", currency, "feeMinor", "netMinor", "quotedPayoutAt", reason, state, "requestedById", "expiresAt", "decidedById", "decidedAt", "paidAt", "upstreamId", "updatedAt") VALUES
  ('wdr_fix1', 30000, 'USD', 300, 29700, ${at}, 'Month end', 'paid', 'stf-finance', ${at} + interval '1 day', 'stf-approver', ${at}, ${at}, 'upw_1', ${at}),
  ('wdr_fix2', 12000, 'USD', 120, 11880, ${at}, 'Supplier', 'pending', 'stf-finance', ${at} + interval '1 day', NULL, NULL, NULL, NULL, ${at});
INSERT INTO "CodeReveal" (id, "idempotencyKey", "orderId", "staffId", "actorEmail", ticket, reason, "correlationId", state, "revealCount", "finishedAt") VALUES
  ('cr-1', 'reveal-1', 'ord_fix1', ${q(FIXTURE.staffId)}, ${q(FIXTURE.email)}, 'T-1', 'Customer asked', 'corr-1', 'succeeded', 1, ${at});
INSERT INTO "SpendLimit" (scope, currency, "perOrderMinor", "perDayMinor", "updatedById", "updatedAt") VALUES ('workspace', 'USD', 50000, 200000, 'stf-admin', ${at});
INSERT INTO "BulkOrder" (id, "createdById", "fileName", state, "rowCount", "validCount", totals, "updatedAt") VALUES
  ('bulk-1', ${q(FIXTURE.staffId)}, 'orders.csv', 'done', 1, 1, '[{"currency":"USD","totalMinor":"2500"}]', ${at});
INSERT INTO "BulkOrderRow" (id, "bulkOrderId", "rowNumber", input, state, "orderId", "updatedAt") VALUES ('bor-1', 'bulk-1', 1, '{"product":"Gift card"}', 'placed', 'ord_fix1', ${at});
INSERT INTO "NotificationEvent" (id, "eventKey", kind, title, link) VALUES ('nev-1', 'withdrawal.requested:wdr_fix2', 'withdrawal_requested', 'Withdrawal of USD 120.00 waits for approval', '/withdrawals/wdr_fix2');
INSERT INTO "Notification" (id, "eventId", "staffId") VALUES ('ntf-1', 'nev-1', 'stf-approver');
INSERT INTO "NotificationDelivery" (id, "deliveryKey", "eventId", channel, "staffId", status, "dueAt", "sentAt", "updatedAt") VALUES
  ('nd-1', 'withdrawal.requested:wdr_fix2:email:stf-approver', 'nev-1', 'email', 'stf-approver', 'sent', ${at}, ${at}, ${at});
INSERT INTO "NotificationPreference" ("staffId", "emailKinds", digest, "updatedAt") VALUES ('stf-approver', '{withdrawal_requested}', 'hourly', ${at});
INSERT INTO "CaughtMail" (id, "messageId", "from", "to", subject, text) VALUES ('cm-1', '<m1@fixture>', 'app@fixture.local', '{apr@fixture.local}', 'Withdrawal waits', 'A withdrawal waits for approval.');
INSERT INTO "AuditEvent" (at, "actorId", "actorEmail", action, "targetType", "targetId", details) VALUES
  (${at}, 'stf-admin', 'ada@fixture.local', 'staff.created', 'staff', ${q(FIXTURE.staffId)}, '{}'),
  (${at}, ${q(FIXTURE.staffId)}, ${q(FIXTURE.email)}, 'second_factor.enrolled', 'staff', ${q(FIXTURE.staffId)}, '{"kind":"totp"}'),
  (${at}, ${q(FIXTURE.staffId)}, ${q(FIXTURE.email)}, 'order.placed', 'order', 'ord_fix1', '{"totalMinor":"2500"}'),
  (${at}, ${q(FIXTURE.staffId)}, ${q(FIXTURE.email)}, 'code.revealed', 'order', 'ord_fix1', '{}'),
  (${at}, 'stf-approver', 'apr@fixture.local', 'withdrawal.approved', 'withdrawal', 'wdr_fix1', '{}');
`;
}
