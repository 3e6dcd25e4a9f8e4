import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { notify } from "@/lib/notifications/notify";
import { recordAudit } from "@/lib/audit/record";
import { db, type Prisma, type Tx } from "@/lib/db/client";
import type { SpendRequest } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { backgroundWork } from "@/lib/jobs/background-work";
import { refusedDecision } from "@/lib/maker-checker";
import { parseInput } from "@/lib/validation";
import { commitConfirmation, enqueueConfirmed } from "@/lib/bulk-orders/confirm-bulk-order";
import { closeWaitingBulk } from "./bulk-spend";
import { cancelForDeactivation } from "./cancel-buyer-spend-requests";
import { releaseSpend } from "./check-spend";
import { expireSpendRequest } from "./expire-spend-requests";
import { spendSubject } from "./spend-notices";
import { getSpendRequestRow } from "./spend-request-row";
import { chargeSource } from "./spend-request-id";
import { placeApprovedOrder } from "./place-approved-order";
import { approveSpendSchema, rejectSpendSchema, spendRequestIdSchema } from "./schemas";
import { viewSpendRequest } from "./get-spend-request";
import { markWaitingForWorker } from "./waiting-for-worker";
import { assertSpendMove, spendMachine } from "./states";
import type { SpendRequestView } from "./spend-request-view";

/**
 * The checker's yes. Another person than the buyer (even one holding both roles; the
 * database refuses it too), before it expires, approves exactly the stored request at its
 * stored total. An order is then placed at once with that total as `maximumTotal`; a bulk
 * file is confirmed and handed to the bulk job.
 */
export async function approveSpendRequest(actor: Actor, id: unknown, input: unknown): Promise<SpendRequestView> {
  assertCan(actor, "spend.approve");
  const requestId = parseInput(spendRequestIdSchema, id);
  const { comment } = parseInput(approveSpendSchema, input ?? {});
  const row = await decide(actor, requestId, "approved", comment || null);
  if (row.kind === "bulk" && row.bulkOrderId) await enqueueConfirmed(row.bulkOrderId);
  else await placeApprovedOrder(requestId, actor);
  const view = await viewSpendRequest(await getSpendRequestRow(requestId), actor);
  return markWaitingForWorker(view, await backgroundWork(), { justApproved: true });
}

/** The checker's no, with a comment: nothing is ever sent, and the spend stops counting. */
export async function rejectSpendRequest(actor: Actor, id: unknown, input: unknown): Promise<SpendRequestView> {
  assertCan(actor, "spend.approve");
  const requestId = parseInput(spendRequestIdSchema, id);
  const { comment } = parseInput(rejectSpendSchema, input);
  await decide(actor, requestId, "rejected", comment);
  return viewSpendRequest(await getSpendRequestRow(requestId), actor);
}

async function decide(actor: Actor, id: string, to: "approved" | "rejected", comment: string | null): Promise<SpendRequest> {
  const now = new Date();
  assertSpendMove("awaiting", to);
  const outcome = await db().$transaction(async (tx): Promise<SpendRequest | AppError> => {
    const row = await tx.spendRequest.findUnique({ where: { id } });
    if (!row) return new AppError("not_found", "This spend request does not exist.");
    if (to === "approved" && row.state === "awaiting" && !(await buyerIsActive(tx, row.requestedById))) {
      // Deactivation cancels waiting requests; one that escaped it is cancelled now, never approved.
      await cancelForDeactivation(tx, actor, row);
      return new AppError("buyer_inactive", "The person who asked for this has been deactivated; it cannot be approved.", {
        status: 409,
      });
    }
    // One conditional update decides who wins when two approvers click at once; `round`
    // pins the totals the approver saw (a price rise starts a new round).
    const { count } = await tx.spendRequest.updateMany({
      where: { id, state: "awaiting", round: row.round, expiresAt: { gt: now }, NOT: { requestedById: actor.staffId } },
      data: {
        state: to,
        decidedById: actor.staffId,
        decidedAt: now,
        decisionComment: comment,
        ...(to === "approved" ? { approvedTotals: row.totals as Prisma.InputJsonValue } : {}),
      },
    });
    if (count === 1) {
      await recordAudit(tx, {
        action: to === "approved" ? "spend.approve" : "spend.reject",
        actor,
        targetId: id,
        details: { kind: row.kind, totals: row.totals, comment, requestedById: row.requestedById, round: row.round },
      });
      await afterDecision(tx, actor, row, to);
      // The buyer hears of the decision with it (never the decider); of an approved order, with
      // what became of it once placed (place-approved-order.ts), or failed (orders.failed).
      const decision = { approved: to === "approved", deciderId: actor.staffId, deciderName: actor.name };
      if (to === "rejected")
        await notify(tx, "approval.decided", {
          subject: await spendSubject(tx, row),
          ...decision,
          ...(comment ? { comment } : {}),
        });
      else if (row.kind === "bulk" && row.bulkOrderId)
        await notify(tx, "approval.decided", {
          subject: await spendSubject(tx, row),
          ...decision,
          then: { what: "bulk_placing", bulkOrderId: row.bulkOrderId },
        });
      return tx.spendRequest.findUniqueOrThrow({ where: { id } });
    }
    return refusedDecision(
      tx,
      actor,
      row,
      {
        noun: "order",
        selfApproval: { action: "spend.self_approval_refused" },
        waiting: "awaiting",
        expire: () => expireSpendRequest(tx, row),
        afterExpiry: "The buyer can submit it again.",
        stateWords: spendMachine.words,
      },
      now,
    );
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}

async function afterDecision(tx: Tx, actor: Actor, row: SpendRequest, to: "approved" | "rejected"): Promise<void> {
  if (to === "rejected") {
    await releaseSpend(tx, chargeSource(row));
    if (row.bulkOrderId) await closeWaitingBulk(tx, row.bulkOrderId, "Not placed: the approver rejected this file.");
    return;
  }
  if (row.kind !== "bulk" || !row.bulkOrderId) return;
  const bulk = await tx.bulkOrder.findUnique({ where: { id: row.bulkOrderId } });
  if (bulk?.state !== "awaiting_approval") throw new AppError("conflict", "This file is no longer waiting for approval.");
  await commitConfirmation(tx, bulk, "awaiting_approval", actor);
  // The file is handed to the bulk job: its rows are placed (and followed) as any confirmed file's.
  assertSpendMove("approved", "placed");
  await tx.spendRequest.update({ where: { id: row.id }, data: { state: "placed" } });
}

/**
 * Whether the buyer may still be spent for. The row is locked (FOR SHARE) until the decision
 * commits, so a deactivation at the same moment either sees this request approved or makes
 * this check see the person inactive: never an approval for someone just deactivated.
 */
async function buyerIsActive(tx: Tx, staffId: string): Promise<boolean> {
  const [staff] = await tx.$queryRaw<{ active: boolean }[]>`SELECT "active" FROM "Staff" WHERE "id" = ${staffId} FOR SHARE`;
  return staff?.active === true;
}
