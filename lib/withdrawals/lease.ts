import "server-only";
import { db, type Prisma } from "@/lib/db/client";

/**
 * One actor per withdrawal request at a time: a lease on the row (`leaseUntil`), taken by a
 * conditional update and longer than any upstream call's deadline, so that a send, its
 * resolution and an upstream cancellation never overlap. A holder that crashed leaves a
 * lease that runs out.
 */
export const LEASE_MS = 120_000;

type Row = Prisma.WithdrawalRequestGetPayload<object>;

/** Nobody holds the row: never leased, or the holder's lease ran out (it crashed). */
export function leaseFree(now: Date) {
  return { OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] } satisfies Prisma.WithdrawalRequestWhereInput;
}

/** Takes the row for this process if it matches `where` and nobody else holds it. */
export async function claimWithdrawal(
  where: Prisma.WithdrawalRequestWhereInput & { id: string },
  data: Prisma.WithdrawalRequestUpdateManyMutationInput = {},
): Promise<Row | null> {
  const now = new Date();
  const { count } = await db().withdrawalRequest.updateMany({
    where: { ...where, ...leaseFree(now) },
    data: { ...data, leaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  return count === 1 ? db().withdrawalRequest.findUnique({ where: { id: where.id } }) : null;
}

/** Gives the row back, with whatever the holder learned. */
export async function releaseWithdrawal(id: string, data: Prisma.WithdrawalRequestUncheckedUpdateInput = {}): Promise<void> {
  await db().withdrawalRequest.update({ where: { id }, data: { ...data, leaseUntil: null } });
}
