import "server-only";
import type { BalanceEvent } from "./balance-history";

export type WithdrawalEventQuery = { currency: string; from: Date };

/** Withdrawal movements of the available balance in one currency since `from`, for the chart. */
export const withdrawalEvents: (query: WithdrawalEventQuery) => Promise<BalanceEvent[]> = async () => {
  return []; // filled in when withdrawals merge
};

/**
 * For that query's rows: a withdrawal sent to the Issuing Service holds its amount out of
 * the available balance; one cancelled after sending gets it back; paying out moves only
 * the hold. A request never sent (pending, approved, rejected, expired) moved nothing.
 */
export function withdrawalToEvents(w: { amountMinor: bigint; sentAt: Date | null; cancelledAt: Date | null }): BalanceEvent[] {
  if (!w.sentAt) return [];
  const events: BalanceEvent[] = [{ at: w.sentAt, deltaMinor: -w.amountMinor, kind: "withdrawal" }];
  if (w.cancelledAt) events.push({ at: w.cancelledAt, deltaMinor: w.amountMinor, kind: "withdrawal_release" });
  return events;
}
