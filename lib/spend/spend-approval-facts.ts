import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { minorToDecimal } from "@/lib/money";
import { spentBy } from "@/lib/upstream/service";
import { balanceAfter, type BalancesAfter } from "@/lib/wallet/balance-after";
import { tryReadCurrentBalances } from "@/lib/wallet/current-balances";
import { countedSpend, limitsFor, type Limits } from "./spend-limits";
import { chargeSource, readStoredTotals } from "./spend-request-id";

/** One period of the buyer's spend: what counted before this request, with it, and the limit (null: none). */
export type SpendWindowFacts = { spent: string; withThis: string; limit: string | null; overLimit: boolean };
export type CurrencySpendFacts = {
  currency: string;
  perOrder: string | null;
  today: SpendWindowFacts;
  month: SpendWindowFacts;
};
/** What an approver weighs beside the request: the buyer's spend against their limits, and the wallet after it. */
export type SpendApprovalFacts = {
  spend: CurrencySpendFacts[];
  /** Null: this person may not read the wallet. */
  balance: BalancesAfter | null;
};

/**
 * The facts for each waiting request among `rows`, for a person who sees everyone's (approvers,
 * admins, viewers). Spend counts as the limit check counts it (./spend-limits.ts `countedSpend`,
 * per UTC day and month), besides the request's own charge, which counts while it waits. The
 * balance is the shared read, read again if the wallet moved since
 * (lib/wallet/current-balances.ts); a balance that cannot be read is said so, never a failed page.
 */
export async function spendApprovalFacts(
  actor: Actor,
  rows: SpendRequest[],
  now = new Date(),
): Promise<Map<string, SpendApprovalFacts>> {
  const waiting = rows.filter((r) => r.state === "awaiting");
  const facts = new Map<string, SpendApprovalFacts>();
  if (waiting.length === 0) return facts;
  const read = can(actor.roles, "wallet.read") ? await tryReadCurrentBalances({ by: spentBy(actor) }) : undefined;
  const limits = new Map<string, Promise<Limits | null>>();
  const limitsOf = (staffId: string, currency: string) => {
    const key = `${staffId}\u0000${currency}`;
    if (!limits.has(key)) limits.set(key, limitsFor(db(), staffId, currency));
    return limits.get(key)!;
  };

  for (const row of waiting) {
    const totals = readStoredTotals(row.totals);
    const spend: CurrencySpendFacts[] = [];
    for (const { currency, amountMinor } of totals) {
      const [limit, before] = await Promise.all([
        limitsOf(row.requestedById, currency),
        countedSpend(db(), row.requestedById, currency, now, chargeSource(row)),
      ]);
      const window = (spent: bigint, max: bigint | null | undefined): SpendWindowFacts => ({
        spent: minorToDecimal(spent, currency),
        withThis: minorToDecimal(spent + amountMinor, currency),
        limit: max == null ? null : minorToDecimal(max, currency),
        overLimit: max != null && spent + amountMinor > max,
      });
      spend.push({
        currency,
        perOrder: limit?.perOrderMinor == null ? null : minorToDecimal(limit.perOrderMinor, currency),
        today: window(before.today, limit?.perDayMinor),
        month: window(before.thisMonth, limit?.perMonthMinor),
      });
    }
    const balance: BalancesAfter | null =
      read === undefined
        ? null
        : read === null
          ? { kind: "unavailable" }
          : {
              kind: "read",
              readAt: read.readAt,
              updating: read.updating,
              items: totals.map((t) => balanceAfter(read, t.currency, t.amountMinor)),
            };
    facts.set(row.id, { spend, balance });
  }
  return facts;
}
