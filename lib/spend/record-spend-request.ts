import "server-only";
import type { Actor } from "@/lib/auth/actor";
import type { AuditDetailsOf } from "@/lib/audit/actions";
import { notify } from "@/lib/notifications/notify";
import { recordAudit } from "@/lib/audit/record";
import type { Prisma, Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Settings } from "@/lib/settings/schema";
import { chargeSpend, type SpendAmount } from "./check-spend";
import { spendSubject } from "./spend-notices";
import { chargeSource, newSpendRequestId, toStoredTotals } from "./spend-request-id";

/**
 * The buyer's reason, which an order or a file past the threshold or a limit must carry: without
 * one, a 409 that says why approval is needed (`why`, the clause of ./approval-reasons.ts) and a
 * field message asking for the reason.
 */
export function requireApprovalReason(reason: string | undefined, why: string, what: "This order" | "This file"): string {
  if (reason) return reason;
  throw new AppError(
    "approval_required",
    `${what} needs approval because ${why}. An approver must agree before it is placed: say why it is needed.`,
    {
      status: 409,
      fieldErrors: { approvalReason: ["Say why this order is needed."] },
      extra: { why },
    },
  );
}

/**
 * An approval request, written in the gate's transaction (lib/spend/gate-order.ts for one order,
 * bulk-spend.ts for a file): the request, its charge against the buyer's limits (it counts while
 * it waits), its audit row and the approvers' notification, together. Nothing is sent. Returns
 * the request's id.
 */
export async function recordSpendRequest(
  tx: Tx,
  actor: Actor,
  request: {
    kind: "order" | "bulk";
    reason: string;
    why: string;
    amounts: SpendAmount[];
    settings: Settings;
    /** What only this kind stores: the order's inline form, lines and submission key, or the file's id. */
    fields: Pick<Prisma.SpendRequestUncheckedCreateInput, "orderRequest" | "lines" | "submissionKey" | "bulkOrderId">;
    /** What the audit row says of it (the audit table's `spend.request` details). */
    details: AuditDetailsOf<"spend.request">;
  },
): Promise<string> {
  const id = newSpendRequestId();
  const now = new Date();
  const row = await tx.spendRequest.create({
    data: {
      id,
      kind: request.kind,
      reason: request.reason,
      why: request.why,
      totals: toStoredTotals(request.amounts),
      ...request.fields,
      requestedById: actor.staffId,
      requestedAt: now,
      expiresAt: new Date(now.getTime() + request.settings.spendApprovalHours * 3_600_000),
    },
  });
  const source = chargeSource({ id, kind: request.kind, bulkOrderId: request.fields.bulkOrderId ?? null });
  await chargeSpend(tx, actor.staffId, source, request.amounts);
  await recordAudit(tx, {
    action: "spend.request",
    actor,
    targetId: id,
    details: request.details,
  });
  // Approvers hear of it in the same transaction: the request and its notification commit together.
  await notify(tx, "approval.waiting", { subject: await spendSubject(tx, row, actor.name), expiresAt: row.expiresAt });
  return id;
}
