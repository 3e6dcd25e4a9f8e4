import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import type { Tx } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { closeWaitingBulk } from "./bulk-spend";
import { releaseSpend } from "./check-spend";
import { chargeSource } from "./spend-request-id";
import { assertSpendMove, BUYER_DEACTIVATED } from "./states";

/**
 * A deactivated person's requests still waiting for an approver are cancelled, in the
 * deactivation's transaction: nobody may approve and place spend for someone who can no
 * longer work here. Each is audited (`spend.cancel`), its spend released, a waiting bulk
 * file closed. Returns the ids cancelled.
 */
export async function cancelBuyerSpendRequests(tx: Tx, actor: Actor, staffId: string): Promise<string[]> {
  const waiting = await tx.spendRequest.findMany({ where: { requestedById: staffId, state: "awaiting" } });
  const cancelled: string[] = [];
  for (const row of waiting) if (await cancelForDeactivation(tx, actor, row)) cancelled.push(row.id);
  return cancelled;
}

/** awaiting → cancelled for a deactivated buyer; a no-op if it was decided meanwhile. */
export async function cancelForDeactivation(tx: Tx, actor: Actor, row: SpendRequest): Promise<boolean> {
  assertSpendMove("awaiting", "cancelled");
  const { count } = await tx.spendRequest.updateMany({
    where: { id: row.id, state: "awaiting" },
    data: { state: "cancelled", failureCode: BUYER_DEACTIVATED },
  });
  if (count !== 1) return false;
  await releaseSpend(tx, chargeSource(row));
  if (row.bulkOrderId) await closeWaitingBulk(tx, row.bulkOrderId, "Not placed: the person who uploaded it was deactivated.");
  await recordAudit(tx, {
    action: "spend.cancel",
    actor,
    targetId: row.id,
    details: { reason: BUYER_DEACTIVATED, kind: row.kind, totals: row.totals, requestedById: row.requestedById },
  });
  return true;
}
