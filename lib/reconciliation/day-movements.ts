import "server-only";
import { db, type Prisma } from "@/lib/db/client";
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
  const orders = (where: Prisma.OrderWhereInput) =>
    db()
      .order.aggregate({ where: { currency: w.currency, ...where }, _sum: { totalMinor: true }, _count: true })
      .then((a) => ({ minor: a._sum.totalMinor ?? 0n, count: a._count }));
  const [fulfilled, refundedCaptured, refunded, credited, withdrawn] = await Promise.all([
    orders({ status: "fulfilled", upstreamUpdatedAt: within }),
    orders({ status: "refunded", upstreamCreatedAt: within }),
    orders({ status: "refunded", upstreamUpdatedAt: within }),
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
    capturedMinor: fulfilled.minor + refundedCaptured.minor,
    capturedCount: fulfilled.count + refundedCaptured.count,
    refundedMinor: refunded.minor,
    refundedCount: refunded.count,
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
