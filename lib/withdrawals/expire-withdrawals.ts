import "server-only";
import { db } from "@/lib/db/client";
import { expireOne } from "./decide-withdrawal";

/** Requests nobody approved in time become expired (each audited); they are never sent. */
export async function expireWithdrawals(now = new Date()): Promise<number> {
  const due = await db().withdrawalRequest.findMany({ where: { state: "pending", expiresAt: { lte: now } }, select: { id: true }, take: 500 });
  let expired = 0;
  for (const { id } of due) if (await db().$transaction((tx) => expireOne(tx, id))) expired += 1;
  return expired;
}
