import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { spentBy } from "@/lib/upstream/service";
import { parseInput } from "@/lib/validation";
import { buildBalanceHistory, downsample, type BalanceAnchor, type BalancePoint } from "./balance-history";
import { movementsAfter, sliceCuts, thinnedHistoryFromSlices } from "./balance-slices";
import { movementEvents } from "./movement-events";
import { movementSlices } from "./movement-slices";
import { readBalances, type BalancesRead } from "./read-balances";
import { balanceReadsSince } from "./record-balance-read";

export const historyQuerySchema = z.strictObject({
  currency: z.string({ error: "Choose a currency." }).regex(/^[A-Z]{3}$/, "A three-letter currency code."),
  days: z.coerce
    .number({ error: "Enter a whole number." })
    .int("Enter a whole number.")
    .min(1, "At least 1 day.")
    .max(365, "At most 365 days.")
    .default(30),
});

/** Points on the chart at most; more movements than this are thinned (lib/wallet/balance-history.ts). */
const MAX_POINTS = 400;

export type BalanceHistory = {
  currency: string;
  from: string;
  to: string;
  /** Movements found in the app's records over the period. */
  movements: number;
  /** Balance reads recorded over the period (the anchors). */
  reads: number;
  points: { at: string; availableMinor: string }[];
};

/**
 * The available balance of one currency over the last `days`, for the wallet chart, from
 * recorded balance reads and recorded movements (all on this app's clock). The read passed
 * in (the page's own, so the chart ends where the cards are) or a fresh one ends the line.
 */
export async function getBalanceHistory(actor: Actor, input: unknown, anchor?: BalancesRead): Promise<BalanceHistory> {
  assertCan(actor, "wallet.read");
  const { currency, days } = parseInput(historyQuerySchema, input);
  const read = anchor ?? (await readBalances({ fresh: true, priority: "interactive", by: spentBy(actor) }));
  const now = new Date(read.readAt);
  const from = new Date(now.getTime() - days * 86_400_000);
  const current = read.items.find((b) => b.currency === currency);
  const reads = await balanceReadsSince(currency, from);
  if (current) reads.push({ at: now, availableMinor: BigInt(current.availableMinor) });
  // Movements from the anchor before the period on, so the period's first value is right.
  const since = reads[0] && reads[0].at < from ? reads[0].at : from;
  const { points, movements } =
    (await thinnedHistory({ currency, since, from, now, reads })) ?? (await fullHistory({ currency, since, from, now, reads }));
  return {
    currency,
    from: from.toISOString(),
    to: now.toISOString(),
    movements,
    reads: reads.filter((r) => r.at > from).length,
    points: points.map((p) => ({ at: p.at.toISOString(), availableMinor: p.availableMinor.toString() })),
  };
}

type HistoryQuery = { currency: string; since: Date; from: Date; now: Date; reads: BalanceAnchor[] };
type History = { points: BalancePoint[]; movements: number };

/**
 * A busy period (more movements than the chart has points, e.g. 100,000 orders) from sums
 * per slice of time, the same line; null when the line is short enough to draw every point.
 */
async function thinnedHistory({ currency, since, from, now, reads }: HistoryQuery): Promise<History | null> {
  const cuts = sliceCuts({ from: from.getTime(), now: now.getTime(), max: MAX_POINTS, reads });
  const slices = await movementSlices({ currency, since, now, cuts });
  const points = thinnedHistoryFromSlices({ reads, slices, cuts, from, now, max: MAX_POINTS });
  return points ? { points, movements: movementsAfter(slices, cuts, from) } : null;
}

/** Every movement read one by one: every point is drawn. */
export async function fullHistory({ currency, since, from, now, reads }: HistoryQuery): Promise<History> {
  const events = await movementEvents({ currency, since });
  return {
    points: downsample(buildBalanceHistory({ reads, events, from, now }), MAX_POINTS),
    movements: events.filter((e) => e.at > from && e.at <= now).length,
  };
}
