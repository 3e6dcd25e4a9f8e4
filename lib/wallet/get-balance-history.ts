import "server-only";
import { z } from "zod";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { parseInput } from "@/lib/validation";
import { buildBalanceHistory, downsample } from "./balance-history";
import { creditEvents } from "./credit-events";
import { orderEvents } from "./order-events";
import { readBalances, type BalancesRead } from "./read-balances";
import { balanceReadsSince } from "./record-balance-read";
import { withdrawalEvents } from "./withdrawal-events";

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
  const read = anchor ?? (await readBalances({ fresh: true, priority: "interactive" }));
  const now = new Date(read.readAt);
  const from = new Date(now.getTime() - days * 86_400_000);
  const current = read.items.find((b) => b.currency === currency);
  const reads = await balanceReadsSince(currency, from);
  if (current) reads.push({ at: now, availableMinor: BigInt(current.availableMinor) });
  // Movements from the anchor before the period on, so the period's first value is right.
  const since = reads[0] && reads[0].at < from ? reads[0].at : from;
  const query = { currency, from: since };
  const events = (await Promise.all([orderEvents(query), creditEvents(query), withdrawalEvents(query)])).flat();
  const points = buildBalanceHistory({ reads, events, from, now });
  return {
    currency,
    from: from.toISOString(),
    to: now.toISOString(),
    movements: events.filter((e) => e.at > from && e.at <= now).length,
    reads: reads.filter((r) => r.at > from).length,
    points: downsample(points, MAX_POINTS).map((p) => ({ at: p.at.toISOString(), availableMinor: p.availableMinor.toString() })),
  };
}
