import "server-only";
import { db, sqlQuery } from "@/lib/db/client";
import { countEvent } from "@/lib/telemetry/event-counts";
import { guardValues, liveSessionCondition, sessionToConfirm } from "./session-slot";
import { BudgetRefusal, type BudgetCharge, type Priority, type RequestBudget, type Spender } from "@/lib/upstream/client";

const WINDOW_MS = 60_000;
/** No share: jobs are paced by their own rules (the import's calls a minute), not by a person's share. */
const UNBOUNDED = 2_147_483_647;

/**
 * How the minute is shared out, as numbers of calls (the wiring turns the admin's settings into
 * these: lib/upstream/service.ts).
 */
export type BudgetShares = {
  /** Calls of every minute that only the money class may use. */
  moneyReserve: number;
  /** A person's interactive and background calls together, a minute. */
  personCalls: number;
  /** A person's lookups of unknown order ids and references, a minute (they count as calls too). */
  personLookups: number;
};

export type BudgetCaps = Record<Priority, number> & { lookup: number };

/**
 * One statement takes a slot (parallel callers cannot pass a cap together, across every
 * process and instance): first the spender's row of the minute, refused past their share,
 * then, only if that passed, the workspace's row, refused past the class's cap. It answers
 * whether each passed; a spender row that passed beside a full window is given back at once.
 * Given a session to confirm ($10 on, ./session-slot.ts), it takes nothing unless
 * that session is alive, and answers whether it was: the request's one round trip does both.
 * Every upstream call sends it first, so it goes through node-postgres (`sqlQuery`, prepared
 * once per connection) rather than Prisma's `$queryRaw`.
 */
const TAKE_SLOT = `
  WITH live AS (
    SELECT 1 WHERE CASE WHEN $10::text IS NULL THEN true ELSE ${liveSessionCondition(10)} END
  ), share AS (
    INSERT INTO "UpstreamSpend" AS s ("windowStart", "spender", "money", "interactive", "background", "lookups")
    SELECT $1::timestamptz AT TIME ZONE 'UTC', $3::text, $4::int, $5::int, $6::int, $7::int FROM live
    ON CONFLICT ("windowStart", "spender") DO UPDATE SET
      "money" = s."money" + EXCLUDED."money",
      "interactive" = s."interactive" + EXCLUDED."interactive",
      "background" = s."background" + EXCLUDED."background",
      "lookups" = s."lookups" + EXCLUDED."lookups"
    WHERE s."interactive" + s."background" + EXCLUDED."interactive" + EXCLUDED."background" <= $8
      AND s."lookups" + EXCLUDED."lookups" <= $9
    RETURNING 1
  ), total AS (
    INSERT INTO "RateBudget" AS b ("windowStart", "used") SELECT $1::timestamptz AT TIME ZONE 'UTC', 1 FROM share
    ON CONFLICT ("windowStart") DO UPDATE SET "used" = b."used" + 1
    WHERE b."used" < $2
    RETURNING "used"
  )
  SELECT (SELECT count(*) FROM live)::int AS "live", (SELECT count(*) FROM share)::int AS "share",
    (SELECT count(*) FROM total)::int AS "taken"`;
const NO_SESSION = [null, null, null, null, null];

const GIVE_BACK = `
  UPDATE "UpstreamSpend" SET "money" = "money" - $3, "interactive" = "interactive" - $4,
    "background" = "background" - $5, "lookups" = "lookups" - $6
  WHERE "windowStart" = $1::timestamptz AT TIME ZONE 'UTC' AND "spender" = $2`;

const COUNT_REFUSAL = `
  UPDATE "UpstreamSpend" SET "refused" = "refused" + 1
  WHERE "windowStart" = $1::timestamptz AT TIME ZONE 'UTC' AND "spender" = $2
  RETURNING "refused"`;

/** The key a spender's rows are kept under. */
export function spenderKey(by: Spender | undefined): string {
  if (!by) return "job:unattributed";
  return by.kind === "person" ? `staff:${by.staffId}` : `job:${by.name}`;
}

/**
 * The caps of each class for a limit and its shares. Everything stops a small margin short of
 * the upstream's limit (clocks and in-flight calls); reads stop short of the money reserve, so
 * a person placing an order never waits behind anyone's reads; background work stops at three
 * quarters, and so do lookups of unknown ids (background priority when the minute is busy).
 */
export function budgetCaps(limit: number, shares: Pick<BudgetShares, "moneyReserve">): BudgetCaps {
  const money = Math.max(1, limit - Math.max(1, Math.floor(limit * 0.02)));
  const interactive = Math.max(1, money - shares.moneyReserve);
  const background = Math.max(1, Math.min(Math.floor(limit * 0.75), interactive));
  return { money, interactive, background, lookup: background };
}

/** The settings' percentages as calls of a minute of `limit`. */
export function sharesFor(
  limit: number,
  settings: { moneyReservePercent: number; personSharePercent: number; personLookupsPerMinute: number },
): BudgetShares {
  return {
    moneyReserve: Math.floor((limit * settings.moneyReservePercent) / 100),
    personCalls: Math.max(1, Math.floor((limit * settings.personSharePercent) / 100)),
    personLookups: Math.max(1, settings.personLookupsPerMinute),
  };
}

/**
 * The workspace-wide request budget, shared by every app instance through one row per fixed
 * minute (aligned to the wall-clock minute, as the upstream's window is), and who spent it,
 * one row per minute and spender.
 *
 * - The money class may use the whole minute (less a small margin); people's reads stop short
 *   of its reserve; background work stops at three quarters (`budgetCaps`).
 * - A person's own reads (interactive and background together) are held to their share of the
 *   minute, and their lookups of unknown ids and references to a smaller one. Past it they are
 *   refused at once (the caller answers 429 with Retry-After), so one person flooding reads
 *   spends at most their share and nobody else notices. Money calls count for the person but
 *   are never refused by their share. Jobs have no share.
 * - When the window is full for a class, callers wait for the next one, up to their deadline.
 */
export function createDbBudget(
  limit: number,
  options: {
    /** The shares as the admin set them; asked on every slot, so keep it cheap (the wiring memoises). */
    shares: (() => Promise<BudgetShares> | BudgetShares) | BudgetShares;
    /** Told once per caller that finds the window full (the admin's "had to wait" count). */
    onWait?: (priority: Priority) => void;
    /** Told when a person's share refuses a call; `first` is the first refusal of that person in the minute. */
    onShareRefused?: (by: Spender, first: boolean) => void;
  },
): RequestBudget & { usedThisMinute(): Promise<number>; caps(): Promise<BudgetCaps> } {
  const sharesNow = async () => (typeof options.shares === "function" ? options.shares() : options.shares);
  return {
    async caps() {
      return budgetCaps(limit, await sharesNow());
    },
    async acquire(charge: BudgetCharge, deadline: number) {
      const { priority, by } = charge;
      const spender = spenderKey(by);
      const person = by?.kind === "person";
      const lookup = person && charge.lookup === true;
      // What this call adds to the spender's row: its class, and a lookup beside it.
      const add = [
        priority === "money" ? 1 : 0,
        priority === "interactive" ? 1 : 0,
        priority === "background" ? 1 : 0,
        lookup ? 1 : 0,
      ];
      for (let waited = false; ; waited = true) {
        const shares = await sharesNow();
        const caps = budgetCaps(limit, shares);
        const cap = lookup ? caps.lookup : caps[priority];
        const now = Date.now();
        const windowStart = new Date(now - (now % WINDOW_MS)).toISOString();
        const nextWindowIn = WINDOW_MS - (now % WINDOW_MS);
        const session = by?.kind === "person" ? sessionToConfirm(by.staffId) : null;
        const [row] = await sqlQuery<{ live: number; share: number; taken: number }>(TAKE_SLOT, [
          windowStart,
          cap,
          spender,
          ...add,
          person && priority !== "money" ? shares.personCalls : UNBOUNDED,
          lookup ? shares.personLookups : UNBOUNDED,
          ...(session ? guardValues(session.guard) : NO_SESSION),
        ]);
        if (session) {
          session.state = row?.live ? "confirmed" : "refused";
          if (!row?.live) throw new BudgetRefusal("session", 0);
        }
        if (row?.taken) {
          if (Math.random() < 0.01) void prune(now);
          return;
        }
        if (!row?.share && charge.patient && now + nextWindowIn <= deadline) {
          await new Promise((resolve) => setTimeout(resolve, nextWindowIn + Math.floor(Math.random() * 250)));
          continue;
        }
        if (!row?.share) {
          const [counted] = await sqlQuery<{ refused: number }>(COUNT_REFUSAL, [windowStart, spender]).catch(() => []);
          if (by) options.onShareRefused?.(by, counted?.refused === 1);
          countEvent("dgis_budget_refusals_total", { reason: "share", class: priority });
          throw new BudgetRefusal("share", nextWindowIn);
        }
        await sqlQuery(GIVE_BACK, [windowStart, spender, ...add]);
        if (!waited) options.onWait?.(priority);
        const wait = nextWindowIn + Math.floor(Math.random() * 250);
        if (now + wait > deadline) {
          countEvent("dgis_budget_refusals_total", { reason: "window", class: priority });
          throw new BudgetRefusal("window", nextWindowIn);
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
    async usedThisMinute() {
      const now = Date.now();
      const row = await db().rateBudget.findUnique({ where: { windowStart: new Date(now - (now % WINDOW_MS)) } });
      return row?.used ?? 0;
    },
  };
}

/** Windows older than an hour are of no use to the budget (the admin's per-spender view reads the last hour). */
async function prune(now: number): Promise<void> {
  const before = new Date(now - 2 * 3_600_000);
  await Promise.all([
    db().rateBudget.deleteMany({ where: { windowStart: { lt: before } } }),
    db().upstreamSpend.deleteMany({ where: { windowStart: { lt: before } } }),
  ]).catch(() => undefined);
}
