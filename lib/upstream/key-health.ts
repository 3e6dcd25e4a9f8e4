import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { db, Prisma, sqlQuery } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { notify } from "@/lib/notifications/notify";
import type { KeyName, KeyOutcome, Scope } from "@/lib/upstream/client";

/** Which process holds a key: the web processes, or the worker (which alone holds the payout key). */
export type KeyHolder = "web" | "worker";

type DescribedKey = {
  name: KeyName;
  scopes: Scope[];
  keys: { lookup: string; role: "active" | "next"; inUse: boolean; expiresAt: Date | null }[];
};

/** A key's success is written at most this often per process: one UPDATE, not one per call. */
const SUCCESS_EVERY_MS = 30_000;

/**
 * What each process learns of its keys, written where admins can see it (Settings' key health,
 * lib/overview/key-health.ts): the keys it holds (announced once, when its client is wired),
 * the last answer that accepted each, the last 401 or 403 with the upstream's words, and when
 * a rotation switched to the next key. A 403 for a scope is audited once per key and scope
 * (the transport never retries it). Nothing here is awaited by a call, and a failed write is
 * logged, never thrown: key health must not fail the calls it watches.
 */
export function createKeyHealth(holder: KeyHolder) {
  const lastWritten = new Map<string, number>();
  const quietly = (what: string) => (error: unknown) =>
    logger.warn(`key health: ${what} not recorded`, { error: error instanceof Error ? error.message : String(error) });

  return {
    /** This process's keys, as its client describes them (public lookup segments only). */
    announce(keys: DescribedKey[]): Promise<void> {
      const rows = keys.flatMap((slot) => slot.keys.map((key) => ({ ...key, name: slot.name, scopes: slot.scopes })));
      return Promise.all(
        rows.map((key) =>
          sqlQuery(ANNOUNCE, [key.lookup, key.name, key.role, key.scopes, holder, key.expiresAt]).catch(quietly("a key")),
        ),
      )
        .then(() => sqlQuery(LET_GO, [holder, rows.map((key) => key.lookup)]))
        .then(() => undefined, quietly("the keys let go"));
    },

    outcome(outcome: KeyOutcome): void {
      if (outcome.outcome === "ok") {
        const now = Date.now();
        if (now - (lastWritten.get(outcome.lookup) ?? 0) < SUCCESS_EVERY_MS) return;
        lastWritten.set(outcome.lookup, now);
        void sqlQuery(SUCCEEDED, [outcome.lookup]).catch(quietly("a success"));
        return;
      }
      void recordRefusal(outcome).catch(quietly("a refusal"));
    },

    /** A 401 moved `name` to its next key: the rotation is now in progress (or overdue). */
    switched(lookup: string): void {
      void sqlQuery(SWITCHED, [lookup]).catch(quietly("a key switch"));
    },
  };
}

const ANNOUNCE = `
  INSERT INTO "UpstreamKey" ("lookup", "name", "slot", "scopes", "heldBy", "expiresAt", "announcedAt")
  VALUES ($1, $2, $3, $4::text[], ARRAY[$5]::text[], $6, now())
  ON CONFLICT ("lookup") DO UPDATE SET
    "name" = EXCLUDED."name", "slot" = EXCLUDED."slot", "scopes" = EXCLUDED."scopes",
    "expiresAt" = EXCLUDED."expiresAt", "announcedAt" = now(),
    "heldBy" = CASE WHEN $5 = ANY("UpstreamKey"."heldBy") THEN "UpstreamKey"."heldBy"
                    ELSE array_append("UpstreamKey"."heldBy", $5) END`;

/** A key this kind of process no longer holds (rotated out, or moved to another process) is no longer its. */
const LET_GO = `
  UPDATE "UpstreamKey" SET "heldBy" = array_remove("heldBy", $1)
  WHERE $1 = ANY("heldBy") AND NOT ("lookup" = ANY($2::text[]))`;

const SUCCEEDED = `UPDATE "UpstreamKey" SET "lastSuccessAt" = now() WHERE "lookup" = $1`;

const SWITCHED = `UPDATE "UpstreamKey" SET "inUseSince" = COALESCE("inUseSince", now()) WHERE "lookup" = $1`;

/**
 * A refusal starts a run of them unless one is under way (refused since, and not accepted
 * since): the run's start is what key health reads as "stopped since".
 */
const REFUSED_SINCE = `"refusedSince" = CASE
    WHEN "refusedSince" IS NOT NULL AND ("lastSuccessAt" IS NULL OR "lastSuccessAt" < "refusedSince") THEN "refusedSince"
    ELSE now() END`;

const REFUSED = `
  UPDATE "UpstreamKey" SET "lastRefusalAt" = now(), "lastRefusalStatus" = $2, "lastRefusalScope" = $3,
    "lastRefusalMessage" = $4, ${REFUSED_SINCE}
  WHERE "lookup" = $1`;

/** The first refusal of a key for a scope inserts the row (and is audited); later ones count. */
const SCOPE_REFUSED = `
  INSERT INTO "UpstreamScopeRefusal" AS r ("lookup", "scope") VALUES ($1, $2)
  ON CONFLICT ("lookup", "scope") DO UPDATE SET "count" = r."count" + 1, "lastAt" = now()
  RETURNING r."count"`;

async function recordRefusal(outcome: KeyOutcome): Promise<void> {
  const status = outcome.outcome === "unauthorized" ? 401 : 403;
  // The upstream's words are short and name no secret (§5 problem documents); kept short anyway.
  const message = (outcome.message ?? "").slice(0, 300);
  if (status === 401) return recordUnauthorized(outcome, message);
  await sqlQuery(REFUSED, [outcome.lookup, status, outcome.scope, message]);
  const [row] = await sqlQuery<{ count: number }>(SCOPE_REFUSED, [outcome.lookup, outcome.scope]);
  if (row?.count !== 1) return;
  logger.warn("upstream key refused for a scope", { key: outcome.key, lookup: outcome.lookup, scope: outcome.scope });
  // The person refused is told admins were alerted (lib/upstream/to-app-error.ts): they are, once per key and scope.
  await db().$transaction((tx) =>
    auditAndTellAdmins(tx, "upstream.key_scope_refused", outcome, message, {
      eventKey: `upstream.key_scope_refused:${outcome.lookup}:${outcome.scope}`,
      title: `The Issuing Service refused the ${outcome.key} key ${outcome.lookup} the scope ${outcome.scope} (403)`,
      body: "Calls that need this scope fail until the key is given it or replaced. Settings shows each key's health and how to fix it.",
    }),
  );
}

/**
 * A 401: the key itself was refused. Recorded on its row and, when it is the first refusal
 * since the key last worked (or ever), admins are notified in the same transaction: once per
 * episode of refusals, the event key naming the refusal that began it.
 */
async function recordUnauthorized(outcome: KeyOutcome, message: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<
      { name: string; lastRefusalAt: Date | null; lastRefusalStatus: number | null; lastSuccessAt: Date | null }[]
    >`
      SELECT "name", "lastRefusalAt", "lastRefusalStatus", "lastSuccessAt" FROM "UpstreamKey" WHERE "lookup" = ${outcome.lookup} FOR UPDATE`;
    const [after] = await tx.$queryRaw<{ lastRefusalAt: Date }[]>`
      UPDATE "UpstreamKey" SET "lastRefusalAt" = now(), "lastRefusalStatus" = 401, "lastRefusalScope" = ${outcome.scope},
        "lastRefusalMessage" = ${message}, ${Prisma.raw(REFUSED_SINCE)}
      WHERE "lookup" = ${outcome.lookup} RETURNING "lastRefusalAt"`;
    if (!before || !after) return;
    const ongoing =
      before.lastRefusalStatus === 401 &&
      before.lastRefusalAt !== null &&
      (before.lastSuccessAt === null || before.lastSuccessAt < before.lastRefusalAt);
    if (ongoing) return;
    logger.warn("upstream key refused (401)", { key: outcome.key, lookup: outcome.lookup });
    // Audited once per episode, naming the key, whatever call met it (a quote as well as an order).
    await auditAndTellAdmins(tx, "upstream.key_refused", outcome, message, {
      eventKey: `upstream.key_refused:${outcome.lookup}:${after.lastRefusalAt.toISOString()}`,
      title: `The Issuing Service refused the ${before.name} key ${outcome.lookup} (401)`,
      body: "Calls that need this key fail until it is replaced or rotated. Settings shows each key's health and how to fix it.",
    });
  });
}

/** A refusal that begins an episode: audited, and admins told (Settings shows the fix), in one transaction. */
async function auditAndTellAdmins(
  tx: Prisma.TransactionClient,
  action: "upstream.key_refused" | "upstream.key_scope_refused",
  outcome: KeyOutcome,
  message: string,
  notice: { eventKey: string; title: string; body: string },
) {
  await recordAudit(tx, {
    action,
    actor: null,
    targetId: outcome.lookup,
    correlationId: outcome.correlationId ?? null,
    details: { key: outcome.key, scope: outcome.scope, message },
  });
  await notify(tx, { kind: "upstream.key_refused", ...notice, link: "/settings" });
}
