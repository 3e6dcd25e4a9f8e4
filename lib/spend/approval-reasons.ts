import { formatMoney } from "@/lib/money";

/**
 * Why a spend waits for a second person, as data: every rule it passes, not only the first.
 * The server decides with it (./check-spend.ts, under the buyer's lock), the order form and a
 * bulk file say it before submitting (components/ordering/spend-notice.tsx), and the words
 * below are the only ones the approver's card, the buyer and the 409 read.
 */
export type ApprovalReason =
  | { rule: "threshold" | "per_order"; currency: string; totalMinor: bigint; limitMinor: bigint }
  | { rule: "day" | "month"; currency: string; totalMinor: bigint; limitMinor: bigint; spentMinor: bigint };

/** One period's limit and what already counts against it; null: no limit for that period. */
export type PeriodSpend = { limitMinor: bigint; spentMinor: bigint } | null;

/** What applies to one buyer in one currency (null: that rule is not set). */
export type SpendRules = {
  currency: string;
  thresholdMinor: bigint | null;
  perOrderMinor: bigint | null;
  day: PeriodSpend;
  month: PeriodSpend;
};

/** Every rule a spend of `totalMinor` passes, in the order a person weighs them. Empty: it may be sent now. */
export function approvalReasons(rules: SpendRules, totalMinor: bigint): ApprovalReason[] {
  const { currency } = rules;
  const reasons: ApprovalReason[] = [];
  if (rules.thresholdMinor !== null && totalMinor > rules.thresholdMinor)
    reasons.push({ rule: "threshold", currency, totalMinor, limitMinor: rules.thresholdMinor });
  if (rules.perOrderMinor !== null && totalMinor > rules.perOrderMinor)
    reasons.push({ rule: "per_order", currency, totalMinor, limitMinor: rules.perOrderMinor });
  for (const [rule, period] of [
    ["day", rules.day],
    ["month", rules.month],
  ] as const)
    if (period && period.spentMinor + totalMinor > period.limitMinor)
      reasons.push({ rule, currency, totalMinor, limitMinor: period.limitMinor, spentMinor: period.spentMinor });
  return reasons;
}

/**
 * One reason as a clause that reads after "Needs approval because": lower case, no full stop.
 * `totalSaid`: an earlier clause already began "its total of …", so this one says "it".
 */
export function approvalReasonText(reason: ApprovalReason, totalSaid = false): string {
  const money = (minor: bigint) => formatMoney(minor, reason.currency);
  const total = money(reason.totalMinor);
  const subject = totalSaid ? "it" : `its total of ${total}`;
  switch (reason.rule) {
    case "threshold":
      return `${subject} is above the approval threshold of ${money(reason.limitMinor)}`;
    case "per_order":
      return `${subject} is above the limit of ${money(reason.limitMinor)} per order`;
    case "day":
    case "month": {
      const [when, limit] = reason.rule === "day" ? ["today", "daily"] : ["this month", "monthly"];
      // Nothing spent yet: the total alone passes the limit, and "$0.00 already spent" says nothing.
      if (reason.spentMinor === 0n) return `${subject} is above the ${limit} limit of ${money(reason.limitMinor)}`;
      return `${money(reason.spentMinor)} already spent ${when} (UTC) plus ${total} would pass the ${limit} limit of ${money(reason.limitMinor)}`;
    }
  }
}

/** Whether the clause for this reason begins with the total ("its total of …"). */
const beginsWithTotal = (reason: ApprovalReason) =>
  reason.rule === "day" || reason.rule === "month" ? reason.spentMinor === 0n : true;

/**
 * All reasons as one clause for "Needs approval because …": "a", "a, and b", "a; b; and c"
 * (a reason may hold a comma of its own, so three or more are set apart by semicolons). The
 * total is named once: "its total of $5.44 is above the approval threshold of $4.08, and it is
 * above the daily limit of $4.08".
 */
export function approvalWhy(reasons: ApprovalReason[]): string {
  const clauses = reasons.map((reason, i) =>
    approvalReasonText(reason, beginsWithTotal(reason) && reasons.slice(0, i).some(beginsWithTotal)),
  );
  if (clauses.length <= 1) return clauses[0] ?? "";
  if (clauses.length === 2) return `${clauses[0]}, and ${clauses[1]}`;
  return `${clauses.slice(0, -1).join("; ")}; and ${clauses.at(-1)}`;
}

/**
 * A stored clause as the card shows it after "Needs approval because". Requests recorded before
 * the clauses were lower case began "The total …" or "With …" and ended with a full stop.
 */
export function storedWhyClause(why: string): string {
  return why.replace(/^(The|With) /, (word) => word.toLowerCase()).replace(/\.$/, "");
}
