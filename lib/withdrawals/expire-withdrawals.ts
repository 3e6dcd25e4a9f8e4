import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { db, type Tx } from "@/lib/db/client";
import { assertWithdrawalMove } from "./states";

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
