import "server-only";
import { amountsInWords, type ApprovalSubject } from "@/lib/approval-notices";
import type { Tx } from "@/lib/db/client";
import { notify } from "@/lib/notifications/notify";
import type { SpendRequest } from "@/lib/db/generated/client";
import { readStoredTotals } from "./spend-request-id";

/**
 * A spend request as its notifications name it: "Order of $57.00 (ref. spring-17)" or
 * "Bulk file of $570.00 (10 orders)", the requester's name, and its card on the approvals page.
 */
export async function spendSubject(
  tx: Tx,
  row: Pick<SpendRequest, "id" | "kind" | "totals" | "orderRequest" | "bulkOrderId" | "requestedById" | "round">,
  requesterName?: string,
): Promise<ApprovalSubject> {
  const amount = amountsInWords(readStoredTotals(row.totals));
  let what = `Order of ${amount}`;
  if (row.kind === "bulk" && row.bulkOrderId) {
    const bulk = await tx.bulkOrder.findUnique({ where: { id: row.bulkOrderId }, select: { validCount: true } });
    what = `Bulk file of ${amount}${bulk ? ` (${bulk.validCount} ${bulk.validCount === 1 ? "order" : "orders"})` : ""}`;
  } else {
    const reference = referenceOf(row.orderRequest);
    if (reference) what += ` (ref. ${reference})`;
  }
  const name =
    requesterName ?? (await tx.staff.findUnique({ where: { id: row.requestedById }, select: { name: true } }))?.name ?? "a buyer";
  return {
    id: row.id,
    round: row.round,
    what,
    requestedById: row.requestedById,
    requesterName: name,
    link: `/spend-approvals#${row.id}`,
  };
}

function referenceOf(orderRequest: unknown): string | null {
  if (!orderRequest || typeof orderRequest !== "object") return null;
  const reference = (orderRequest as { clientReference?: unknown }).clientReference;
  return typeof reference === "string" && reference ? reference.slice(0, 80) : null;
}

/**
 * An approved order the Issuing Service then refused (not a price rise, which goes back to the
 * approvers): the buyer hears, in the transaction that records it as failed.
 */
export async function noticeApprovedOrderRefused(tx: Tx, row: SpendRequest, code: string): Promise<void> {
  const subject = await spendSubject(tx, row);
  await notify(tx, {
    kind: "orders.failed",
    eventKey: `orders.failed:${row.id}`,
    title: `${subject.what} was approved but the Issuing Service refused it (${code})`,
    body: "Nothing was charged; the amount no longer counts against your limits. Submit it again if it is still needed.",
    link: subject.link,
    audience: { staffIds: [row.requestedById] },
  });
}
