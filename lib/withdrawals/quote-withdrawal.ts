import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { formatMoney, minorToDecimal, parseMinor, toMinor } from "@/lib/money";
import { spentBy, upstream } from "@/lib/upstream/service";
import type { Spender } from "@/lib/upstream/client";
import { withdrawalQuoteSchema } from "./schemas";

export type WithdrawalQuote = {
  amount: string;
  currency: string;
  fee: string;
  netAmount: string;
  payoutDate: string;
  availableBalance: string | null;
  /** Requests in this currency approved or awaiting approval but not yet held upstream. */
  heldByOtherRequests: string;
};

/**
 * Fee, net amount and payout date for a withdrawal, from the upstream's quote. An amount
 * above what is available is refused with the contract's 409 `withdrawal_above_balance`,
 * counting the app's own requests that are not yet held upstream: two requests that each
 * fit, but not together, are caught here rather than at the second payout.
 */
export async function quoteWithdrawal(actor: Actor, input: unknown): Promise<WithdrawalQuote> {
  assertCan(actor, "withdrawals.request");
  const { amount, currency } = parseInput(withdrawalQuoteSchema, input);
  return (await priceWithdrawal(parseMinor(amount, currency), currency, spentBy(actor))).quote;
}

export async function priceWithdrawal(
  amountMinor: bigint,
  currency: string,
  by: Spender,
): Promise<{ quote: WithdrawalQuote; feeMinor: bigint; netMinor: bigint; payoutAt: Date }> {
  const { data: terms } = await upstream().quoteWithdrawal(
    { amount: Number(minorToDecimal(amountMinor, currency)), currency },
    { priority: "interactive", by },
  );
  const held = await unsentHeld(currency);
  const available = terms.availableBalance === undefined ? null : toMinor(terms.availableBalance, currency);
  if (terms.isCoveredByBalance === false || (available !== null && available - held < amountMinor)) {
    const free = available === null ? null : available - held;
    throw new AppError(
      "withdrawal_above_balance",
      free === null
        ? "The amount is above the wallet's available balance."
        : `The amount is above what can be withdrawn: ${formatMoney(free < 0n ? 0n : free, currency)} is available${held > 0n ? ` after ${formatMoney(held, currency)} in requests not yet sent` : ""}.`,
      {
        status: 409,
        extra: {
          availableBalance: available === null ? null : minorToDecimal(available, currency),
          heldByOtherRequests: minorToDecimal(held, currency),
        },
      },
    );
  }
  const feeMinor = toMinor(terms.fee, currency);
  const netMinor = toMinor(terms.netAmount, currency);
  const quote: WithdrawalQuote = {
    amount: minorToDecimal(amountMinor, currency),
    currency,
    fee: minorToDecimal(feeMinor, currency),
    netAmount: minorToDecimal(netMinor, currency),
    payoutDate: terms.payoutDateUtc,
    availableBalance: available === null ? null : minorToDecimal(available, currency),
    heldByOtherRequests: minorToDecimal(held, currency),
  };
  return { quote, feeMinor, netMinor, payoutAt: new Date(terms.payoutDateUtc) };
}

async function unsentHeld(currency: string): Promise<bigint> {
  const sum = await db().withdrawalRequest.aggregate({
    where: { currency, OR: [{ state: "pending", expiresAt: { gt: new Date() } }, { state: { in: ["approved", "sending"] } }] },
    _sum: { amountMinor: true },
  });
  return sum._sum.amountMinor ?? 0n;
}
