import "server-only";
import { db } from "@/lib/db/client";
import type { DayMovements } from "./day-statement";

export type Window = { currency: string; from: Date; to: Date };

/**
 * What the app's own records say moved the total balance in [from, to), on the upstream's
 * clock (its timestamps, so a day is the upstream's day whatever this machine's clock says):
 * - captured: mirrored orders fulfilled then (`upstreamUpdatedAt` of a fulfilled order); a
 *   refunded order's capture time is no longer kept, so its creation time stands in for it
 *   (fulfilment follows creation within seconds, the contract says);
 * - refunded: orders refunded then (their last upstream update);
 * - credited: `wallet.credited` webhooks that occurred then;
 * - withdrawn: withdrawals this app sent that the upstream paid then.
 */
export async function dayMovements(w: Window): Promise<DayMovements> {
  const within = { gte: w.from, lt: w.to };
  const [fulfilled, refundedCaptured, refunded, credited, withdrawn] = await Promise.all([
    db().order.aggregate({
      where: { currency: w.currency, status: "fulfilled", upstreamUpdatedAt: within },
      _sum: { totalMinor: true },
      _count: true,
    }),
    db().order.aggregate({
      where: { currency: w.currency, status: "refunded", upstreamCreatedAt: within },
      _sum: { totalMinor: true },
      _count: true,
    }),
    db().order.aggregate({
      where: { currency: w.currency, status: "refunded", upstreamUpdatedAt: within },
      _sum: { totalMinor: true },
      _count: true,
    }),
    db().walletCredit.aggregate({
      where: { currency: w.currency, occurredAt: within },
      _sum: { amountMinor: true },
      _count: true,
    }),
    db().withdrawalRequest.aggregate({
      where: { currency: w.currency, state: "paid", paidAt: within },
      _sum: { amountMinor: true },
      _count: true,
    }),
  ]);
  return {
    capturedMinor: (fulfilled._sum.totalMinor ?? 0n) + (refundedCaptured._sum.totalMinor ?? 0n),
    capturedCount: fulfilled._count + refundedCaptured._count,
    refundedMinor: refunded._sum.totalMinor ?? 0n,
    refundedCount: refunded._count,
    creditedMinor: credited._sum.amountMinor ?? 0n,
    creditedCount: credited._count,
    withdrawnMinor: withdrawn._sum.amountMinor ?? 0n,
    withdrawnCount: withdrawn._count,
  };
}

/** The effect of one order on the total balance in [from, to), by its status and times. */
export function orderEffect(
  o: { status: string; totalMinor: bigint; createdAt: Date; updatedAt: Date },
  from: Date,
  to: Date,
): bigint {
  const inside = (at: Date) => at >= from && at < to;
  let effect = 0n;
  if (o.status === "fulfilled" && inside(o.updatedAt)) effect -= o.totalMinor;
  if (o.status === "refunded" && inside(o.createdAt)) effect -= o.totalMinor;
  if (o.status === "refunded" && inside(o.updatedAt)) effect += o.totalMinor;
  return effect;
}
