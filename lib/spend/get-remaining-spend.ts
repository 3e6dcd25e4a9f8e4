import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { minorToDecimal } from "@/lib/money";
import { getSettings } from "@/lib/settings/get-settings";
import { limitsFor, spentSince } from "./spend-limits";
import { thresholdMinor, utcDayStart, utcMonthStart } from "./spend-window";

export type RemainingSpend = {
  currency: string;
  /** Orders above this wait for an approver (null: no threshold). */
  approvalAbove: string | null;
  perOrder: string | null;
  /** What is left today / this month (UTC) before an order needs approval; null: no limit. */
  leftToday: string | null;
  leftThisMonth: string | null;
};

/**
 * What the order form and the bulk preview show a buyer before they submit: the largest
 * order that goes through without approval, in each currency. Only an explanation: the
 * server checks again, under the buyer's lock, when they submit.
 */
export async function getRemainingSpend(actor: Actor, currency: string, now = new Date()): Promise<RemainingSpend> {
  const settings = await getSettings();
  const tx = db();
  const limits = await limitsFor(tx, actor.staffId, currency);
  const left = async (limit: bigint | null, from: Date) => {
    if (limit === null) return null;
    const rest = limit - (await spentSince(tx, actor.staffId, currency, from));
    return minorToDecimal(rest > 0n ? rest : 0n, currency);
  };
  return {
    currency,
    approvalAbove: settings.spendApprovalAmount
      ? minorToDecimal(thresholdMinor(settings.spendApprovalAmount, currency), currency)
      : null,
    perOrder: limits?.perOrderMinor != null ? minorToDecimal(limits.perOrderMinor, currency) : null,
    leftToday: await left(limits?.perDayMinor ?? null, utcDayStart(now)),
    leftThisMonth: await left(limits?.perMonthMinor ?? null, utcMonthStart(now)),
  };
}
