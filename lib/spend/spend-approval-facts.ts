import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { minorToDecimal } from "@/lib/money";
import { spentBy } from "@/lib/upstream/service";
import { balanceAfter, type BalancesAfter } from "@/lib/wallet/balance-after";
import { tryReadCurrentBalances } from "@/lib/wallet/current-balances";
import { limitsFor, spentSince } from "./spend-limits";
import { chargeSource, readStoredTotals } from "./spend-request-id";
import { utcDayStart, utcMonthStart } from "./spend-window";

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
 * admins, viewers). Spend counts as the limits count it (./spend-limits.ts: held and spent charges
 * and uncovered orders, per UTC day and month), less the request's own charge, which counts while
 * it waits. The balance is the shared read, read again if the wallet moved since
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
  const periods = new Map<string, Promise<{ perOrder: bigint | null; day: Period; month: Period }>>();
  const periodsOf = (staffId: string, currency: string) => {
    const key = `${staffId}\u0000${currency}`;
    if (!periods.has(key)) periods.set(key, buyerPeriods(staffId, currency, now));
    return periods.get(key)!;
  };

  for (const row of waiting) {
    const totals = readStoredTotals(row.totals);
    const own = await ownCharges(row);
    const spend: CurrencySpendFacts[] = [];
    for (const { currency, amountMinor } of totals) {
      const { perOrder, day, month } = await periodsOf(row.requestedById, currency);
      const window = (period: Period, from: Date): SpendWindowFacts => {
        const mine = own.filter((c) => c.currency === currency && c.chargedAt >= from).reduce((s, c) => s + c.amountMinor, 0n);
        const before = period.spent - mine;
        return {
          spent: minorToDecimal(before, currency),
          withThis: minorToDecimal(before + amountMinor, currency),
          limit: period.limit === null ? null : minorToDecimal(period.limit, currency),
          overLimit: period.limit !== null && before + amountMinor > period.limit,
        };
      };
      spend.push({
        currency,
        perOrder: perOrder === null ? null : minorToDecimal(perOrder, currency),
        today: window(day, utcDayStart(now)),
        month: window(month, utcMonthStart(now)),
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

type Period = { spent: bigint; limit: bigint | null };

async function buyerPeriods(staffId: string, currency: string, now: Date) {
  const limits = await limitsFor(db(), staffId, currency);
  const [daySpent, monthSpent] = await Promise.all([
    spentSince(db(), staffId, currency, utcDayStart(now)),
    spentSince(db(), staffId, currency, utcMonthStart(now)),
  ]);
  return {
    perOrder: limits?.perOrderMinor ?? null,
    day: { spent: daySpent, limit: limits?.perDayMinor ?? null },
    month: { spent: monthSpent, limit: limits?.perMonthMinor ?? null },
  };
}

/** The request's own charges that count (held while it waits). */
async function ownCharges(row: SpendRequest) {
  return db().spendCharge.findMany({
    where: { source: chargeSource(row), state: { in: ["held", "spent"] } },
    select: { currency: true, amountMinor: true, chargedAt: true },
  });
}
