import "server-only";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import type { BalanceEvent } from "./balance-history";
import { slicesFromMovements, type LedgerMovement, type MovementSlice } from "./balance-slices";
import { orderToEvents } from "./order-events";
import { withdrawalToEvents } from "./withdrawal-events";

/**
 * The wallet chart's movements, per currency, kept in this process: the chart then sums a
 * month of them here (lib/wallet/balance-slices.ts, `slicesFromMovements`) instead of the
 * database scanning every order of the month on every view (about 70 ms of the embedded
 * database's single thread at 100,000 orders, the wallet page's largest cost).
 *
 * The same movements, by the same rules, as movementSlices (SQL) and orderEvents,
 * creditEvents, withdrawalEvents (row by row): an order's total reserved when recorded and
 * released when it failed or was refunded; a credit; a withdrawal held when sent and
 * released when cancelled after sending.
 *
 * Kept current on each use by reading only what changed: orders and withdrawal requests
 * whose `updatedAt` (set by Prisma on every write; nothing here writes them in raw SQL) is
 * past the newest seen minus OVERLAP_MS, credits (never updated) recorded past it. The
 * overlap covers a write committed after a later one was read, or stamped by another
 * instance whose clock is a little behind; a source read again replaces its movements.
 * Nothing is ever deleted from these tables, so nothing is missed.
 *
 * What the ledger holds starts LEDGER_DAYS back (a chart of up to 31 days asks for less); a
 * chart that must start earlier (its last balance read before the period is older) gets
 * null and is summed in SQL. Rebuilt from scratch every REBUILD_AFTER_MS so that it does not
 * grow without end; a currency with more than MAX_MOVEMENTS movements is not kept (null).
 * Every app process has its own; they agree because each reads the same rows.
 */
const LEDGER_DAYS = 35;
const REBUILD_AFTER_MS = 7 * 86_400_000;
const OVERLAP_MS = 5 * 60_000;
const MAX_MOVEMENTS = 500_000;
const DAY = 86_400_000;

type Ledger = {
  /** Movements are complete for every query whose `since` is at or after this. */
  startsAt: number;
  builtAt: number;
  bySource: Map<string, LedgerMovement[]>;
  movements: number;
  seen: { orders: number; withdrawals: number; credits: number };
};

const ledgers = new Map<string, Ledger | "too-large">();
/** One load or catch-up per currency at a time; concurrent views share it. */
const pending = new Map<string, Promise<Ledger | null>>();

/**
 * The movements of `currency` summed between `cuts`, as movementSlices sums them in SQL,
 * or null when the ledger cannot answer (see above): the caller then asks the database.
 */
export async function ledgerSlices(query: {
  currency: string;
  since: Date;
  now: Date;
  cuts: readonly number[];
}): Promise<MovementSlice[] | null> {
  const ledger = await currentLedger(query.currency);
  if (!ledger || query.since.getTime() < ledger.startsAt) return null;
  return slicesFromMovements(allMovements(ledger), { since: query.since.getTime(), now: query.now.getTime(), cuts: query.cuts });
}

function* allMovements(ledger: Ledger): Iterable<LedgerMovement> {
  for (const movements of ledger.bySource.values()) yield* movements;
}

async function currentLedger(currency: string): Promise<Ledger | null> {
  const running = pending.get(currency);
  if (running) return running;
  const work = (async () => {
    const held = ledgers.get(currency);
    if (held === "too-large") return null;
    if (held && Date.now() - held.builtAt < REBUILD_AFTER_MS) {
      await catchUp(currency, held);
      return held;
    }
    const built = await build(currency);
    ledgers.set(currency, built ?? "too-large");
    return built;
  })();
  pending.set(currency, work);
  try {
    return await work;
  } catch (error) {
    // A failed catch-up may have applied part of what it read: start again next time.
    ledgers.delete(currency);
    throw error;
  } finally {
    pending.delete(currency);
  }
}

async function build(currency: string): Promise<Ledger | null> {
  const builtAt = Date.now();
  const startsAt = builtAt - LEDGER_DAYS * DAY;
  const from = new Date(startsAt);
  const ledger: Ledger = {
    startsAt,
    builtAt,
    bySource: new Map(),
    movements: 0,
    // What changes from now on is read by the first catch-up (with the overlap).
    seen: { orders: builtAt, withdrawals: builtAt, credits: builtAt },
  };
  const [orders, withdrawals, credits] = await Promise.all([
    db().order.findMany({
      where: { currency, OR: [{ createdAt: { gt: from } }, { status: { in: ["failed", "refunded"] }, updatedAt: { gt: from } }] },
      select: ORDER_FIELDS,
    }),
    db().withdrawalRequest.findMany({
      where: { currency, upstreamId: { not: null }, OR: [{ sendStartedAt: { gt: from } }, { cancelledAt: { gt: from } }] },
      select: WITHDRAWAL_FIELDS,
    }),
    db().walletCredit.findMany({ where: { currency, createdAt: { gt: from } }, select: CREDIT_FIELDS }),
  ]);
  apply(ledger, orders, withdrawals, credits);
  if (ledger.movements > MAX_MOVEMENTS) {
    logger.warn("wallet chart: too many movements to keep in memory; summed in the database", { currency });
    return null;
  }
  return ledger;
}

async function catchUp(currency: string, ledger: Ledger): Promise<void> {
  const after = (seen: number) => new Date(seen - OVERLAP_MS);
  const [orders, withdrawals, credits] = await Promise.all([
    db().order.findMany({ where: { currency, updatedAt: { gt: after(ledger.seen.orders) } }, select: ORDER_FIELDS }),
    db().withdrawalRequest.findMany({
      where: { currency, updatedAt: { gt: after(ledger.seen.withdrawals) } },
      select: WITHDRAWAL_FIELDS,
    }),
    db().walletCredit.findMany({ where: { currency, createdAt: { gt: after(ledger.seen.credits) } }, select: CREDIT_FIELDS }),
  ]);
  apply(ledger, orders, withdrawals, credits);
}

const ORDER_FIELDS = {
  id: true,
  status: true,
  totalMinor: true,
  createdAt: true,
  updatedAt: true,
  upstreamCreatedAt: true,
  upstreamUpdatedAt: true,
} as const;
const WITHDRAWAL_FIELDS = {
  id: true,
  amountMinor: true,
  state: true,
  upstreamId: true,
  sendStartedAt: true,
  cancelledAt: true,
  updatedAt: true,
} as const;
const CREDIT_FIELDS = { eventId: true, amountMinor: true, createdAt: true } as const;

type OrderRow = {
  id: string;
  status: string;
  totalMinor: bigint;
  createdAt: Date;
  updatedAt: Date;
  upstreamCreatedAt: Date;
  upstreamUpdatedAt: Date;
};
type WithdrawalRow = {
  id: string;
  amountMinor: bigint;
  state: string;
  upstreamId: string | null;
  sendStartedAt: Date | null;
  cancelledAt: Date | null;
  updatedAt: Date;
};
type CreditRow = { eventId: string; amountMinor: bigint; createdAt: Date };

/**
 * Each source's movements, replacing what it had, with the time after which a chart counts
 * them (`countedAfter`) and whether one before the chart's start still counts (`anyTime`),
 * exactly as the SQL and row-by-row readers select them.
 */
function apply(ledger: Ledger, orders: OrderRow[], withdrawals: WithdrawalRow[], credits: CreditRow[]): void {
  const set = (key: string, movements: LedgerMovement[]) => {
    ledger.movements += movements.length - (ledger.bySource.get(key)?.length ?? 0);
    if (movements.length) ledger.bySource.set(key, movements);
    else ledger.bySource.delete(key);
  };
  for (const order of orders) {
    // An order is read when placed after the start (createdAt), or released and updated after it.
    const countedAfter = Math.max(order.createdAt.getTime(), order.updatedAt.getTime());
    set(
      `o:${order.id}`,
      orderToEvents(order).map((event, i) => movement(event, i === 0 ? order.createdAt.getTime() : countedAfter, false)),
    );
    ledger.seen.orders = Math.max(ledger.seen.orders, order.updatedAt.getTime());
  }
  for (const w of withdrawals) {
    const events = w.upstreamId
      ? withdrawalToEvents({
          amountMinor: w.amountMinor,
          sentAt: w.sendStartedAt,
          cancelledAt: w.state === "cancelled" ? w.cancelledAt : null,
        })
      : [];
    // Read when sent or cancelled after the start, and then with both its movements.
    const countedAfter = Math.max(w.sendStartedAt?.getTime() ?? -Infinity, w.cancelledAt?.getTime() ?? -Infinity);
    set(
      `w:${w.id}`,
      events.map((event) => movement(event, countedAfter, true)),
    );
    ledger.seen.withdrawals = Math.max(ledger.seen.withdrawals, w.updatedAt.getTime());
  }
  for (const c of credits) {
    set(`c:${c.eventId}`, [
      { at: c.createdAt.getTime(), deltaMinor: c.amountMinor, countedAfter: c.createdAt.getTime(), anyTime: false },
    ]);
    ledger.seen.credits = Math.max(ledger.seen.credits, c.createdAt.getTime());
  }
}

function movement(event: BalanceEvent, countedAfter: number, anyTime: boolean): LedgerMovement {
  return { at: event.at.getTime(), deltaMinor: event.deltaMinor, countedAfter, anyTime };
}
