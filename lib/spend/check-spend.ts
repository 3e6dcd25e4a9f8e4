import "server-only";
import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import type { Settings } from "@/lib/settings/schema";
import { limitsFor, spentSince } from "./spend-limits";
import { thresholdMinor, utcDayStart, utcMonthStart } from "./spend-window";

export type SpendAmount = { currency: string; amountMinor: bigint };

/**
 * Serializes one buyer's submissions: held until the transaction ends, so the count, the
 * decision and the charge it writes are one step. Two orders that each fit alone cannot
 * both pass when together they do not: the second one sees the first one's charge.
 */
export async function lockBuyerSpend(tx: Tx, staffId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`spend:${staffId}`}))`;
}

/**
 * Why this spend needs a second person's approval, or null if it may be sent now: above
 * the workspace threshold, above the per-order limit, or past the day's or month's limit
 * (UTC) counting what this buyer already placed, sent or has awaiting approval. A bulk
 * file is one spend per currency. Call under `lockBuyerSpend`.
 */
export async function approvalNeeded(
  tx: Tx,
  staffId: string,
  amounts: SpendAmount[],
  settings: Settings,
  now = new Date(),
): Promise<string | null> {
  for (const { currency, amountMinor } of amounts) {
    const money = (minor: bigint) => formatMoney(minor, currency);
    if (settings.spendApprovalAmount) {
      const threshold = thresholdMinor(settings.spendApprovalAmount, currency);
      if (amountMinor > threshold)
        return `The total ${money(amountMinor)} is above the approval threshold of ${money(threshold)}.`;
    }
    const limits = await limitsFor(tx, staffId, currency);
    if (!limits) continue;
    if (limits.perOrderMinor !== null && amountMinor > limits.perOrderMinor)
      return `The total ${money(amountMinor)} is above the limit of ${money(limits.perOrderMinor)} per order.`;
    if (limits.perDayMinor !== null) {
      const spent = await spentSince(tx, staffId, currency, utcDayStart(now));
      if (spent + amountMinor > limits.perDayMinor)
        return `With ${money(spent)} already spent today (UTC), this would pass the daily limit of ${money(limits.perDayMinor)}.`;
    }
    if (limits.perMonthMinor !== null) {
      const spent = await spentSince(tx, staffId, currency, utcMonthStart(now));
      if (spent + amountMinor > limits.perMonthMinor)
        return `With ${money(spent)} already spent this month (UTC), this would pass the monthly limit of ${money(limits.perMonthMinor)}.`;
    }
  }
  return null;
}

/** Records spend against the buyer's limits (same transaction as the check). `source` names the intent. */
export async function chargeSpend(tx: Tx, staffId: string, source: string, amounts: SpendAmount[]): Promise<void> {
  for (const { currency, amountMinor } of amounts) {
    await tx.spendCharge.create({
      data: { id: `sc_${randomBytes(12).toString("base64url")}`, staffId, currency, amountMinor, source },
    });
  }
}

/** The intent was never bought (refused, rejected, expired): it stops counting. */
export async function releaseSpend(tx: Tx, source: string): Promise<void> {
  await tx.spendCharge.updateMany({ where: { source, state: "held" }, data: { state: "released" } });
}

/** The order was placed: it counts at its real total. */
export async function settleSpend(tx: Tx, source: string, currency: string, amountMinor: bigint): Promise<void> {
  await tx.spendCharge.updateMany({ where: { source, currency }, data: { state: "spent", amountMinor } });
}
