import "server-only";
import { sqlQuery } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { Spender } from "@/lib/upstream/client";
import { mayMissMovement, shouldReread } from "./balance-freshness";
import { readBalances, type BalancesRead } from "./read-balances";

/** A read, and whether the wallet moved after it (the figures may not include that yet: "updating"). */
export type CurrentBalances = BalancesRead & { updating: boolean; movedAt: string | null };

/**
 * The shared balance read (up to a minute old, one upstream call a minute per process), read
 * again when the wallet moved since it: an order this app placed, a withdrawal it sent, a credit
 * or a refund it recorded (the wallet chart's movements, kept by the database in "WalletMovement").
 * The movement is the database's, so it reaches every process and instance: the process that
 * placed an order forgets its own read (forgetBalances), the others learn of it here.
 * So a page shown right after the app moved money shows the new figure, or says it is updating
 * while a read younger than REREAD_FLOOR_MS stands, or when the read again fails.
 */
export async function readCurrentBalances(options: {
  by: Spender;
  currencies?: readonly string[];
  /** The warning on every page reads at background priority with a short deadline; pages about money, interactively. */
  priority?: "interactive" | "background";
  deadlineMs?: number;
}): Promise<CurrentBalances> {
  const call = { priority: options.priority ?? "interactive", deadlineMs: options.deadlineMs, by: options.by } as const;
  let read = await readBalances({ fresh: false, ...call });
  const currencies = [...new Set([...read.items.map((i) => i.currency), ...(options.currencies ?? [])])];
  const movedAt = await lastMovementAt(currencies, new Date());
  if (shouldReread(new Date(read.readAt), movedAt, new Date())) {
    try {
      read = await readBalances({ fresh: true, ...call });
    } catch (error) {
      logger.warn("balances: a read after the wallet moved failed; the last read is shown as updating", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { ...read, updating: mayMissMovement(new Date(read.readAt), movedAt), movedAt: movedAt?.toISOString() ?? null };
}

const LAST_MOVEMENT = `
  SELECT max(m."at") AS "at"
  FROM unnest($1::text[]) AS c(currency)
  CROSS JOIN LATERAL (
    SELECT w."at" FROM "WalletMovement" w
    WHERE w."currency" = c.currency AND w."at" <= ($2::timestamptz AT TIME ZONE 'UTC')
    ORDER BY w."at" DESC LIMIT 1
  ) m`;

/**
 * The newest movement of these currencies up to `now` (a refund's time is estimated from the
 * upstream's and can lie ahead of it): one backward step of the (currency, at) index each.
 * Through `sqlQuery` (a prepared statement), not Prisma: the low-balance warning runs this on
 * every page of staff who can order.
 */
async function lastMovementAt(currencies: string[], now: Date): Promise<Date | null> {
  if (currencies.length === 0) return null;
  const [row] = await sqlQuery<{ at: Date | null }>(LAST_MOVEMENT, [currencies, now.toISOString()]);
  return row?.at ?? null;
}

/** The same for a card beside a decision: null when the balance cannot be read now (the card says so; the page still shows). */
export async function tryReadCurrentBalances(options: { by: Spender }): Promise<CurrentBalances | null> {
  try {
    return await readCurrentBalances(options);
  } catch (error) {
    logger.warn("balances: not read for a decision card", { error: error instanceof Error ? error.message : String(error) });
    return null;
  }
}
