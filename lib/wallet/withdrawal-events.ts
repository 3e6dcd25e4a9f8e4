import "server-only";
import { db } from "@/lib/db/client";
import type { BalanceEvent } from "./balance-history";

export type WithdrawalEventQuery = { currency: string; from: Date };

/** Withdrawal movements of the available balance in one currency since `from`, for the chart. */
export async function withdrawalEvents(query: WithdrawalEventQuery): Promise<BalanceEvent[]> {
  // Only requests the upstream holds (linked to an upstream withdrawal) moved money; the
  // hold began with the send (the first attempt: the closest time the app recorded).
  const rows = await db().withdrawalRequest.findMany({
    where: {
      currency: query.currency,
      upstreamId: { not: null },
      OR: [{ sendStartedAt: { gt: query.from } }, { cancelledAt: { gt: query.from } }],
    },
    select: { amountMinor: true, sendStartedAt: true, cancelledAt: true, state: true },
  });
  return rows.flatMap((r) =>
    withdrawalToEvents({
      amountMinor: r.amountMinor,
      sentAt: r.sendStartedAt,
      cancelledAt: r.state === "cancelled" ? r.cancelledAt : null,
    }),
  );
}

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
