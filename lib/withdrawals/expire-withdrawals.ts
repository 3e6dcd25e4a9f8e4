import "server-only";
import { EXPIRY_NOTICE_MS, noticeExpiringRequests } from "@/lib/approval-notices";
import { recordAudit } from "@/lib/audit/record";
import { db, type Tx } from "@/lib/db/client";
import { assertWithdrawalMove } from "./states";
import { withdrawalSubject } from "./withdrawal-notices";

/** Requests nobody approved in time become expired (each audited); they are never sent. */
export async function expireWithdrawals(now = new Date()): Promise<number> {
  const due = await db().withdrawalRequest.findMany({
    where: { state: "pending", expiresAt: { lte: now } },
    select: { id: true },
    take: 500,
  });
  let expired = 0;
  for (const { id } of due) if (await db().$transaction((tx) => expireOne(tx, id))) expired += 1;
  return expired;
}

/** pending → expired, audited; a no-op if it was decided meanwhile. */
export async function expireOne(tx: Tx, id: string): Promise<boolean> {
  assertWithdrawalMove("pending", "expired");
  const { count } = await tx.withdrawalRequest.updateMany({
    where: { id, state: "pending", expiresAt: { lte: new Date() } },
    data: { state: "expired" },
  });
  if (count === 1) await recordAudit(tx, { action: "withdrawal.expire", targetId: id });
  return count === 1;
}

/** Approvers are told once of each request about to expire unapproved (lib/approval-notices.ts). */
export async function noticeExpiringWithdrawals(now = new Date()): Promise<number> {
  const due = await db().withdrawalRequest.findMany({
    where: { state: "pending", expiryNoticedAt: null, expiresAt: { gt: now, lte: new Date(now.getTime() + EXPIRY_NOTICE_MS) } },
    take: 200,
  });
  return noticeExpiringRequests(due, now, {
    transaction: (work) => db().$transaction(work),
    mark: async (tx, row) =>
      (
        await tx.withdrawalRequest.updateMany({
          where: { id: row.id, state: "pending", expiryNoticedAt: null },
          data: { expiryNoticedAt: now },
        })
      ).count === 1,
    subject: (tx, row) => withdrawalSubject(tx, row),
  });
}
