import "server-only";
import { db } from "@/lib/db/client";
import { expireWithdrawals, noticeExpiringWithdrawals } from "./expire-withdrawals";
import { leaseFree } from "./lease";
import { resolveSendingWithdrawal, sendApprovedWithdrawal } from "./send-withdrawal";
import { syncOpenWithdrawals } from "./sync-withdrawals";

/**
 * The worker's periodic pass: expire what nobody approved in time; warn approvers of what is
 * about to (once each); send approved requests
 * whose send never started (a crash between approval and send, or a full request
 * budget); resolve sends whose outcome is unknown (never by resending blindly, see
 * send-withdrawal.ts); and bring requests held upstream up to date (paid, cancelled).
 */
export async function maintainWithdrawals(): Promise<{
  expired: number;
  expiring: number;
  sent: number;
  resolved: number;
  synced: number;
}> {
  const expired = await expireWithdrawals();
  const now = new Date();
  const expiring = await noticeExpiringWithdrawals(now);
  const free = leaseFree(now);
  const due = { OR: [{ nextCheckAt: null }, { nextCheckAt: { lte: now } }] };
  const approved = await db().withdrawalRequest.findMany({
    where: { state: "approved", AND: [free, due] },
    select: { id: true },
    take: 50,
  });
  let sent = 0;
  for (const { id } of approved) if ((await sendApprovedWithdrawal(id, { priority: "background" })) !== "busy") sent += 1;
  const sending = await db().withdrawalRequest.findMany({
    where: { state: "sending", AND: [free, due] },
    select: { id: true },
    take: 50,
  });
  let resolved = 0;
  for (const { id } of sending) if ((await resolveSendingWithdrawal(id, { priority: "background" })) !== "busy") resolved += 1;
  const synced = await syncOpenWithdrawals({ priority: "background" });
  return { expired, expiring, sent, resolved, synced };
}
