import "server-only";
import { EXPIRY_NOTICE_MS, noticeExpiringRequests } from "@/lib/approval-notices";
import { recordAudit } from "@/lib/audit/record";
import { db, type Tx } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { closeWaitingBulk } from "./bulk-spend";
import { releaseSpend } from "./check-spend";
import { spendSubject } from "./spend-notices";
import { chargeSource } from "./spend-request-id";
import { assertSpendMove } from "./states";

/** Requests nobody decided in time become expired (each audited); they are never sent. */
export async function expireSpendRequests(now = new Date()): Promise<number> {
  const due = await db().spendRequest.findMany({ where: { state: "awaiting", expiresAt: { lte: now } }, take: 500 });
  let expired = 0;
  for (const row of due) if (await db().$transaction((tx) => expireSpendRequest(tx, row))) expired += 1;
  return expired;
}

/** awaiting → expired, audited, its spend released (a waiting file cancelled); a no-op if it was decided meanwhile. */
export async function expireSpendRequest(tx: Tx, row: SpendRequest): Promise<boolean> {
  assertSpendMove("awaiting", "expired");
  const { count } = await tx.spendRequest.updateMany({
    where: { id: row.id, state: "awaiting", expiresAt: { lte: new Date() } },
    data: { state: "expired" },
  });
  if (count !== 1) return false;
  await releaseSpend(tx, chargeSource(row));
  if (row.bulkOrderId) await closeWaitingBulk(tx, row.bulkOrderId, "Not placed: nobody approved this file in time.");
  await recordAudit(tx, {
    action: "spend.expire",
    targetId: row.id,
    details: { kind: row.kind, totals: row.totals },
  });
  return true;
}

/** Approvers are told once of each request about to expire undecided (lib/approval-notices.ts). */
export async function noticeExpiringSpendRequests(now = new Date()): Promise<number> {
  const due = await db().spendRequest.findMany({
    where: { state: "awaiting", expiryNoticedAt: null, expiresAt: { gt: now, lte: new Date(now.getTime() + EXPIRY_NOTICE_MS) } },
    take: 200,
  });
  return noticeExpiringRequests(due, now, {
    transaction: (work) => db().$transaction(work),
    mark: async (tx, row) =>
      (
        await tx.spendRequest.updateMany({
          where: { id: row.id, state: "awaiting", expiryNoticedAt: null },
          data: { expiryNoticedAt: now },
        })
      ).count === 1,
    subject: (tx, row) => spendSubject(tx, row),
  });
}
