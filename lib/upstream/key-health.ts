import "server-only";
import { db, type Tx } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { KeyName, KeyOutcome, Scope } from "@/lib/upstream/client";
import { reportKeyRefusal } from "./reports";

/** Which process holds a key: the web processes, or the worker (which alone holds the payout key). */
export type KeyHolder = "web" | "worker";

type HeldKey = { lookup: string; name: KeyName; role: "active" | "next"; scopes: Scope[]; expiresAt: Date | null };
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
 * a rotation switched to the next key. A refusal that is news (a 401 beginning an episode, a
 * first 403 for a scope) is reported through lib/upstream/reports.ts; the domain audits it
 * and tells admins. Through Prisma alone. Nothing here is awaited by a call, and a failed write
 * is logged, never thrown: key health must not fail the calls it watches.
 */
export function createKeyHealth(holder: KeyHolder) {
  const lastWritten = new Map<string, number>();
  const quietly = (what: string) => (error: unknown) =>
    logger.warn(`key health: ${what} not recorded`, { error: error instanceof Error ? error.message : String(error) });

  return {
    /** This process's keys, as its client describes them (public lookup segments only). */
    announce(keys: DescribedKey[]): Promise<void> {
      const rows = keys.flatMap((slot) => slot.keys.map((key) => ({ ...key, name: slot.name, scopes: slot.scopes })));
      return Promise.all(rows.map((key) => announceKey(holder, key).catch(quietly("a key"))))
        .then(() =>
          letGo(
            holder,
            rows.map((key) => key.lookup),
          ),
        )
        .then(() => undefined, quietly("the keys let go"));
    },

    outcome(outcome: KeyOutcome): void {
      if (outcome.outcome === "ok") {
        const now = Date.now();
        if (now - (lastWritten.get(outcome.lookup) ?? 0) < SUCCESS_EVERY_MS) return;
        lastWritten.set(outcome.lookup, now);
        void db().$executeRaw`UPDATE "UpstreamKey" SET "lastSuccessAt" = now() WHERE "lookup" = ${outcome.lookup}`.catch(
          quietly("a success"),
        );
        return;
      }
      void recordRefusal(outcome).catch(quietly("a refusal"));
    },

    /** A 401 moved `name` to its next key: the rotation is now in progress (or overdue). */
    switched(lookup: string): void {
      void db()
        .$executeRaw`UPDATE "UpstreamKey" SET "inUseSince" = COALESCE("inUseSince", now()) WHERE "lookup" = ${lookup}`.catch(
        quietly("a key switch"),
      );
    },
  };
}

/** Records this process's holding of `key` (a key this process announces again keeps one entry). */
function announceKey(holder: KeyHolder, key: HeldKey) {
  return db().$executeRaw`
    INSERT INTO "UpstreamKey" ("lookup", "name", "slot", "scopes", "heldBy", "expiresAt", "announcedAt")
    VALUES (${key.lookup}, ${key.name}, ${key.role}, ${key.scopes}::text[], ARRAY[${holder}]::text[], ${key.expiresAt}, now())
    ON CONFLICT ("lookup") DO UPDATE SET
      "name" = EXCLUDED."name", "slot" = EXCLUDED."slot", "scopes" = EXCLUDED."scopes",
      "expiresAt" = EXCLUDED."expiresAt", "announcedAt" = now(),
      "heldBy" = CASE WHEN ${holder} = ANY("UpstreamKey"."heldBy") THEN "UpstreamKey"."heldBy"
                      ELSE array_append("UpstreamKey"."heldBy", ${holder}) END`;
}

/** A key this kind of process no longer holds (rotated out, or moved to another process) is no longer its. */
function letGo(holder: KeyHolder, held: string[]) {
  return db().$executeRaw`
    UPDATE "UpstreamKey" SET "heldBy" = array_remove("heldBy", ${holder})
    WHERE ${holder} = ANY("heldBy") AND NOT ("lookup" = ANY(${held}::text[]))`;
}

/**
 * Records a 401 or 403 on the key's row and, when it is news, reports it (lib/upstream/reports.ts)
 * in the same transaction, so the domain's audit row and notice commit with it.
 */
async function recordRefusal(outcome: KeyOutcome): Promise<void> {
  const status = outcome.outcome === "unauthorized" ? 401 : 403;
  // The upstream's words are short and name no secret (§5 problem documents); kept short anyway.
  const message = (outcome.message ?? "").slice(0, 300);
  await db().$transaction(async (tx) => {
    const at = await (status === 401 ? unauthorized(tx, outcome, message) : forbidden(tx, outcome, message));
    if (!at) return;
    logger.warn(`upstream key refused (${status})`, { key: outcome.key, lookup: outcome.lookup, scope: outcome.scope });
    await reportKeyRefusal(tx, {
      status,
      key: outcome.key,
      lookup: outcome.lookup,
      scope: outcome.scope,
      message,
      correlationId: outcome.correlationId ?? null,
      at,
    });
  });
}

/**
 * Marks the key refused. A refusal starts a run of them unless one is under way (refused since,
 * and not accepted since): the run's start is what key health reads as "stopped since".
 */
async function markRefused(tx: Tx, outcome: KeyOutcome, status: 401 | 403, message: string) {
  const [row] = await tx.$queryRaw<{ lastRefusalAt: Date }[]>`
    UPDATE "UpstreamKey" SET "lastRefusalAt" = now(), "lastRefusalStatus" = ${status}, "lastRefusalScope" = ${outcome.scope},
      "lastRefusalMessage" = ${message},
      "refusedSince" = CASE
        WHEN "refusedSince" IS NOT NULL AND ("lastSuccessAt" IS NULL OR "lastSuccessAt" < "refusedSince") THEN "refusedSince"
        ELSE now() END
    WHERE "lookup" = ${outcome.lookup} RETURNING "lastRefusalAt"`;
  return row?.lastRefusalAt ?? null;
}

/** A 401: news when it is the first refusal since the key last worked (or ever): once per episode. */
async function unauthorized(tx: Tx, outcome: KeyOutcome, message: string): Promise<Date | null> {
  const [before] = await tx.$queryRaw<
    { lastRefusalAt: Date | null; lastRefusalStatus: number | null; lastSuccessAt: Date | null }[]
  >`
    SELECT "lastRefusalAt", "lastRefusalStatus", "lastSuccessAt" FROM "UpstreamKey" WHERE "lookup" = ${outcome.lookup} FOR UPDATE`;
  const at = await markRefused(tx, outcome, 401, message);
  if (!before || !at) return null;
  const ongoing =
    before.lastRefusalStatus === 401 &&
    before.lastRefusalAt !== null &&
    (before.lastSuccessAt === null || before.lastSuccessAt < before.lastRefusalAt);
  return ongoing ? null : at;
}

/** A 403: news the first time this key is refused this scope (the row counts the later ones). */
async function forbidden(tx: Tx, outcome: KeyOutcome, message: string): Promise<Date | null> {
  const at = await markRefused(tx, outcome, 403, message);
  const [row] = await tx.$queryRaw<{ count: number }[]>`
    INSERT INTO "UpstreamScopeRefusal" AS r ("lookup", "scope") VALUES (${outcome.lookup}, ${outcome.scope})
    ON CONFLICT ("lookup", "scope") DO UPDATE SET "count" = r."count" + 1, "lastAt" = now()
    RETURNING r."count"`;
  return row?.count === 1 ? (at ?? new Date()) : null;
}
