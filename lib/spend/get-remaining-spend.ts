import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { minorToDecimal } from "@/lib/money";
import { getSettings } from "@/lib/settings/get-settings";
import { countedSpend, limitsFor } from "./spend-limits";
import { thresholdMinor } from "./spend-window";

export type RemainingSpend = {
  currency: string;
  /** Orders above this wait for an approver (null: no threshold). */
  approvalAbove: string | null;
  perOrder: string | null;
  /** What is left today / this month (UTC) before an order needs approval; null: no limit. */
  leftToday: string | null;
  leftThisMonth: string | null;
  /** Each period's limit and what already counts against it (null: no limit), for the reasons the form gives. */
  today: PeriodView | null;
  thisMonth: PeriodView | null;
};
type PeriodView = { limit: string; spent: string };

/**
 * What the order form and the bulk preview show a buyer before they submit: the largest
 * order that goes through without approval, in each currency, counted as the limit check
 * counts (./spend-limits.ts `countedSpend`). Only an explanation: the
 * server checks again, under the buyer's lock, when they submit.
 */
export async function getRemainingSpend(actor: Actor, currency: string, now = new Date()): Promise<RemainingSpend> {
  const settings = await getSettings();
  const tx = db();
  const limits = await limitsFor(tx, actor.staffId, currency);
  const spent = limits ? await countedSpend(tx, actor.staffId, currency, now) : null;
  const period = (limit: bigint | null | undefined, counted: bigint | undefined): [PeriodView | null, string | null] => {
    if (limit == null || counted === undefined) return [null, null];
    const rest = limit - counted;
    return [
      { limit: minorToDecimal(limit, currency), spent: minorToDecimal(counted, currency) },
      minorToDecimal(rest > 0n ? rest : 0n, currency),
    ];
  };
  const [today, leftToday] = period(limits?.perDayMinor, spent?.today);
  const [thisMonth, leftThisMonth] = period(limits?.perMonthMinor, spent?.thisMonth);
  return {
    currency,
    approvalAbove: settings.spendApprovalAmount
      ? minorToDecimal(thresholdMinor(settings.spendApprovalAmount, currency), currency)
      : null,
    perOrder: limits?.perOrderMinor != null ? minorToDecimal(limits.perOrderMinor, currency) : null,
    leftToday,
    leftThisMonth,
    today,
    thisMonth,
  };
}
